import './styles.css';

import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';

import { Admin } from './admin';
import { Alerts } from './alerts';
import { gql, session } from './api';
import { SignIn } from './auth';
import { Calendar } from './calendar';
import { Detect } from './detect';
import type { LogOutMutation, LogOutMutationVariables, ViewerQuery, ViewerQueryVariables } from './graphql.generated';
import { HouseholdScreen } from './household';
import { Integrations } from './integrations';
import { Lists } from './lists';
import { startLiveUpdates } from './live';
import { Payments } from './payments';
import { Profile } from './profile';
import { ResetPassword, resetTokenOf } from './reset-password';
import { Security } from './security';
import { takeSignOnArrival } from './single-sign-on';
import { Spending } from './spending';
import { Subscriptions } from './subscriptions';
import { Upcoming } from './upcoming';
import { Webhooks } from './webhooks';

const SCREENS = {
  subscriptions: ['Subscriptions', Subscriptions],
  detect: ['Find subscriptions', Detect],
  upcoming: ['Upcoming', Upcoming],
  calendar: ['Calendar', Calendar],
  spending: ['Spending', Spending],
  payments: ['Payments', Payments],
  household: ['Household', HouseholdScreen],
  lists: ['Lists', Lists],
  alerts: ['Alerts', Alerts],
  webhooks: ['Webhooks', Webhooks],
  integrations: ['Integrations', Integrations],
  profile: ['Profile', Profile],
  security: ['Security', Security],
  admin: ['Admin', Admin],
} as const;
type Screen = keyof typeof SCREENS;

const VIEWER = /* GraphQL */ `
  query Viewer {
    me {
      admin
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

const screenOf = (hash: string): Screen => (hash.slice(2) in SCREENS ? (hash.slice(2) as Screen) : 'subscriptions');

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
  useEffect(() => (signedIn && session.token ? startLiveUpdates(session.token) : undefined), [signedIn]);
  // The admin's screen is offered to admins only (null: not known yet).
  const [admin, setAdmin] = useState<boolean | null>(null);
  useEffect(() => {
    setAdmin(null);
    if (signedIn)
      gql<ViewerQuery, ViewerQueryVariables>(VIEWER).then(
        (answer) => setAdmin(answer.me.admin),
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
          setSignInNotice('Password changed; log in');
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
  const Current = shown === null ? null : SCREENS[shown][1];
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <nav class="top" aria-label="Screens">
        <strong>Subledger</strong>
        {Object.entries(SCREENS).map(([key, [title]]) =>
          key === 'admin' && !admin ? null : (
            <a key={key} href={`#/${key}`} aria-current={key === screen ? 'page' : undefined}>
              {title}
            </a>
          ),
        )}
        <button type="button" class="link" onClick={() => void logOut().then(() => setSignedIn(false))}>
          Log out
        </button>
      </nav>
      <main id="main">
        {Current ? (
          <Current />
        ) : (
          admin === false && <p role="alert">Only an admin of this instance sees this screen.</p>
        )}
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
