import './styles.css';

import { render } from 'preact';
import { lazy } from 'preact/compat';
import { useEffect, useState } from 'preact/hooks';

import { gql, session } from './api';
import { SignIn } from './auth';
import type { LogOutMutation, LogOutMutationVariables, ViewerQuery, ViewerQueryVariables } from './graphql.generated';
import { changeLanguage, currentLanguage, keptLanguage, LANGUAGE_CHANGED, languageOf, speak, t } from './i18n';
import { ScreenFrame } from './lazy-screen';
import { startLiveUpdates } from './live';
import { OfflineNotice, registerServiceWorker } from './offline';
import { askOverviewEarly, Overview } from './overview';
import { ResetPassword, resetTokenOf } from './reset-password';
import { takeSignOnArrival } from './single-sign-on';
import { applyKeptTheme, applyTheme } from './theme';

/**
 * Each screen at #/<key> (the first is the one after login); its title is the message common:screens.<key>.
 * All but the first are loaded when they first open (lazy-screen.tsx).
 */
const SCREENS = {
  overview: Overview,
  subscriptions: lazy(() => import('./subscriptions').then((screen) => screen.Subscriptions)),
  detect: lazy(() => import('./detect').then((screen) => screen.Detect)),
  upcoming: lazy(() => import('./upcoming').then((screen) => screen.Upcoming)),
  calendar: lazy(() => import('./calendar').then((screen) => screen.Calendar)),
  spending: lazy(() => import('./spending').then((screen) => screen.Spending)),
  statistics: lazy(() => import('./statistics').then((screen) => screen.Statistics)),
  payments: lazy(() => import('./payments').then((screen) => screen.Payments)),
  household: lazy(() => import('./household').then((screen) => screen.HouseholdScreen)),
  lists: lazy(() => import('./lists').then((screen) => screen.Lists)),
  alerts: lazy(() => import('./alerts').then((screen) => screen.Alerts)),
  webhooks: lazy(() => import('./webhooks').then((screen) => screen.Webhooks)),
  integrations: lazy(() => import('./integrations').then((screen) => screen.Integrations)),
  profile: lazy(() => import('./profile').then((screen) => screen.Profile)),
  security: lazy(() => import('./security').then((screen) => screen.Security)),
  admin: lazy(() => import('./admin').then((screen) => screen.Admin)),
} as const;
type Screen = keyof typeof SCREENS;

const VIEWER = /* GraphQL */ `
  query Viewer {
    me {
      admin
      theme
      language
    }
  }
`;
const LOG_OUT = /* GraphQL */ `
  mutation LogOut {
    logout {
      user {
        id
      }
    }
  }
`;

/** Revokes the token on the server (a kept one must not outlive the log out), then forgets it here. */
async function logOut(): Promise<void> {
  await gql<LogOutMutation, LogOutMutationVariables>(LOG_OUT).catch(() => undefined);
  session.forget();
}

applyKeptTheme();

/** The screen of an address: #/<screen>, or #/<screen>/<what on it> (#/subscriptions/new); the overview else. */
function screenOf(hash: string): Screen {
  const key = hash.slice(2).split('/')[0];
  return key in SCREENS ? (key as Screen) : 'overview';
}

/** The dashboard: the signed-in user's screens, each at #/<screen>. */
function App() {
  // A single sign-on coming back: out of the address before the screen is read from it; used once.
  const [arrival, setArrival] = useState(takeSignOnArrival);
  const [signedIn, setSignedIn] = useState(session.token !== null && arrival === null);
  // Opened by a password-reset link: that page first, then the sign-in saying the password changed.
  const [resetToken, setResetToken] = useState(resetTokenOf(location));
  const [signInNotice, setSignInNotice] = useState<string>();
  const [screen, setScreen] = useState<Screen>(screenOf(location.hash));
  useEffect(() => {
    const follow = () => setScreen(screenOf(location.hash));
    const signOut = () => setSignedIn(false);
    window.addEventListener('hashchange', follow);
    window.addEventListener('subledger:signed-out', signOut);
    return () => {
      window.removeEventListener('hashchange', follow);
      window.removeEventListener('subledger:signed-out', signOut);
    };
  }, []);
  // On a phone the screens' links fold into a menu; choosing a screen folds it again.
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [screen]);
  useEffect(() => (signedIn && session.token ? startLiveUpdates(session.token) : undefined), [signedIn]);
  // The admin's screen is offered to admins only (null: not known yet).
  const [admin, setAdmin] = useState<boolean | null>(null);
  // The language spoken: the screens are drawn anew when it changes.
  const [language, setLanguage] = useState(currentLanguage);
  useEffect(() => {
    const follow = () => setLanguage(currentLanguage());
    window.addEventListener(LANGUAGE_CHANGED, follow);
    return () => window.removeEventListener(LANGUAGE_CHANGED, follow);
  }, []);
  useEffect(() => {
    setAdmin(null);
    if (signedIn)
      gql<ViewerQuery, ViewerQueryVariables>(VIEWER).then(
        (answer) => {
          setAdmin(answer.me.admin);
          applyTheme(answer.me.theme);
          void changeLanguage(languageOf(answer.me.language));
        },
        () => setAdmin(false),
      );
  }, [signedIn]);
  if (resetToken)
    return (
      <ResetPassword
        token={resetToken}
        onDone={() => {
          setResetToken(null);
          setSignedIn(false);
          setSignInNotice(t('common:passwordChanged'));
        }}
      />
    );
  if (!signedIn)
    return (
      <SignIn
        notice={signInNotice}
        arrival={arrival}
        onSignedIn={() => {
          setArrival(null);
          setSignedIn(true);
        }}
      />
    );
  const shown = screen === 'admin' && admin !== true ? null : screen;
  const Current = shown === null ? null : SCREENS[shown];
  return (
    <div key={language}>
      <a class="skip" href="#main">
        {t('common:skipToContent')}
      </a>
      <nav class="top" aria-label={t('common:screensNav')}>
        <strong>Subledger</strong>
        <button
          type="button"
          class="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="screen-links"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          {t('common:menu')}
        </button>
        <div id="screen-links" class={menuOpen ? 'screen-links open' : 'screen-links'}>
          {Object.keys(SCREENS).map((key) =>
            key === 'admin' && !admin ? null : (
              <a key={key} href={`#/${key}`} aria-current={key === screen ? 'page' : undefined}>
                {t(`common:screens.${key}`)}
              </a>
            ),
          )}
          <button type="button" class="link" onClick={() => void logOut().then(() => setSignedIn(false))}>
            {t('common:logOut')}
          </button>
        </div>
      </nav>
      <main id="main">
        {Current ? (
          <ScreenFrame key={shown}>
            <Current />
          </ScreenFrame>
        ) : (
          admin === false && <p role="alert">{t('common:adminOnly')}</p>
        )}
      </main>
    </div>
  );
}

// The first render waits for the catalogue of the language last spoken here (or the browser's); the overview,
// when it is the screen opened signed in, is asked for meanwhile.
if (session.token && screenOf(location.hash) === 'overview') askOverviewEarly();
void speak(keptLanguage()).then(() =>
  render(
    <>
      <OfflineNotice />
      <App />
    </>,
    document.getElementById('app')!,
  ),
);
registerServiceWorker();
