import type { NotifyApis } from '../platform/config';
import { AppError } from '../platform/errors';
import { checkEndpointUrl } from '../platform/ssrf-guard';
import type { NotificationMessage } from './notification-message';

export const SCHEMES = ['ntfy', 'gotify', 'tgram', 'discord', 'pover', 'slack', 'matrix', 'mailto', 'json'] as const;
export type Scheme = (typeof SCHEMES)[number];

/** What one send of a message to a target is: an HTTP request, or an e-mail through SMTP_URL. */
export type Send =
  | {
      kind: 'http';
      method: 'POST' | 'PUT';
      url: string;
      headers: Record<string, string>;
      body: string;
      /** The service's address comes from the operator's configuration, not from the user. */
      configured: boolean;
    }
  | { kind: 'mail'; to: string[] };

/** A target URL understood: its scheme, how it reads with its secrets masked, and the send of a message. */
export interface TargetAddress {
  scheme: Scheme;
  masked: string;
  send(message: NotificationMessage, apis: NotifyApis): Send;
}

const MASK = '****';
const json = { 'content-type': 'application/json' };
const refuse = (message: string): never => {
  throw AppError.field('url', message);
};
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${decodeURIComponent(user)}:${decodeURIComponent(password)}`).toString('base64')}`;
/** The message as one text: chat services show no separate title. */
const plain = (message: NotificationMessage) => [message.title, message.body, message.link].filter(Boolean).join('\n');

/** The self-hosted services' schemes that mean https: sent over TLS (its certificate verified) or not at all. */
const SECURE_SCHEMES: ReadonlySet<string> = new Set(['ntfys', 'gotifys', 'matrixs', 'jsons']);

/**
 * A self-hosted service's URL (ntfy, Gotify, Matrix, JSON), its scheme (as written: `ntfy` or `ntfys`) swapped
 * for http or https so the URL parser reads user, password, host, port and path; the host must pass the
 * webhook address rule.
 */
function hosted(text: string, scheme: string, allowPrivate: boolean): URL {
  const web = `${SECURE_SCHEMES.has(scheme) ? 'https' : 'http'}${text.slice(text.indexOf('://'))}`;
  const url = checkEndpointUrl(web.replace(/\/\/[^/@]*@/, '//'), allowPrivate);
  const withCredentials = new URL(web);
  url.username = withCredentials.username;
  url.password = withCredentials.password;
  return url;
}

/** The path's segments, without empty ones. */
const segments = (path: string) => path.split('/').filter((part) => part !== '');

/** Where it is, masked: the scheme as given, the host, and the path with `secret` segments hidden. */
function maskedOf(scheme: string, url: URL, user: string | null, path: string[]): string {
  const credentials = user === null ? '' : `${user}${url.password ? `:${MASK}` : ''}@`;
  return `${scheme}://${credentials}${url.host}/${path.join('/')}`;
}

const parsers: Record<Scheme, (text: string, scheme: string, allowPrivate: boolean) => TargetAddress> = {
  ntfy(text, scheme, allowPrivate) {
    const url = hosted(text, scheme, allowPrivate);
    const path = segments(url.pathname);
    const topic = path.pop() ?? refuse('An ntfy URL names its topic: ntfy://[user:password@]host/topic.');
    if (!/^[-_A-Za-z0-9]{1,64}$/.test(topic)) refuse('An ntfy topic is 1 to 64 letters, digits, - and _.');
    // A user without a password is an access token (tk_…), as ntfy's own clients take it.
    const authorization = url.username
      ? url.password
        ? basic(url.username, url.password)
        : `Bearer ${decodeURIComponent(url.username)}`
      : null;
    return {
      scheme: 'ntfy',
      // The topic is the secret on a public server (anyone who knows it reads and posts): masked like a token.
      masked: maskedOf(scheme, url, url.username ? (url.password ? url.username : MASK) : null, [...path, MASK]),
      send: (message) => ({
        kind: 'http',
        method: 'POST',
        url: `${url.origin}/${path.map((part) => `${part}/`).join('')}`,
        headers: { ...json, ...(authorization ? { authorization } : {}) },
        body: JSON.stringify({
          topic,
          title: message.title,
          message: message.body,
          ...(message.link ? { click: message.link } : {}),
        }),
        configured: false,
      }),
    };
  },

  gotify(text, scheme, allowPrivate) {
    const url = hosted(text, scheme, allowPrivate);
    const path = segments(url.pathname);
    const token = path.pop() ?? refuse('A Gotify URL ends with the application token: gotify://host/token.');
    return {
      scheme: 'gotify',
      masked: maskedOf(scheme, url, null, [...path, MASK]),
      send: (message) => ({
        kind: 'http',
        method: 'POST',
        url: `${url.origin}/${path.map((part) => `${part}/`).join('')}message`,
        headers: { ...json, 'x-gotify-key': decodeURIComponent(token) },
        body: JSON.stringify({
          title: message.title,
          message: message.body,
          priority: 5,
          ...(message.link ? { extras: { 'client::notification': { click: { url: message.link } } } } : {}),
        }),
        configured: false,
      }),
    };
  },

  tgram(text) {
    const [token, chat, ...rest] = segments(text.slice('tgram://'.length));
    if (!/^\d+:[A-Za-z0-9_-]+$/.test(token ?? ''))
      refuse('A Telegram URL starts with the bot token: tgram://123456789:AA…/chat_id.');
    if (!/^(-?\d+|@[A-Za-z0-9_]{4,})$/.test(chat ?? '') || rest.length > 0)
      refuse('A Telegram URL names one chat: tgram://bottoken/chat_id (a number, or @channel).');
    return {
      scheme: 'tgram',
      masked: `tgram://${token.split(':')[0]}:${MASK}/${chat}`,
      send: (message, apis) => ({
        kind: 'http',
        method: 'POST',
        url: `${apis.telegram}/bot${token}/sendMessage`,
        headers: json,
        body: JSON.stringify({ chat_id: chat, text: plain(message), disable_web_page_preview: true }),
        configured: true,
      }),
    };
  },

  discord(text) {
    const [id, token, ...rest] = segments(text.slice('discord://'.length));
    if (!/^\d+$/.test(id ?? '') || !/^[A-Za-z0-9_-]+$/.test(token ?? '') || rest.length > 0) {
      refuse(
        'A Discord URL is discord://webhook_id/webhook_token (from the webhook URL discord.com/api/webhooks/id/token).',
      );
    }
    return {
      scheme: 'discord',
      masked: `discord://${id}/${MASK}`,
      send: (message, apis) => ({
        kind: 'http',
        method: 'POST',
        url: `${apis.discord}/api/webhooks/${id}/${token}`,
        headers: json,
        body: JSON.stringify({ content: plain(message) }),
        configured: true,
      }),
    };
  },

  pover(text) {
    const match = /^pover:\/\/([A-Za-z0-9]{30})@([A-Za-z0-9]{30})\/?$/.exec(text);
    if (!match) refuse('A Pushover URL is pover://user_key@app_token (30 letters and digits each).');
    const [, user, token] = match!;
    return {
      scheme: 'pover',
      masked: `pover://${MASK}@${MASK}`,
      send: (message, apis) => ({
        kind: 'http',
        method: 'POST',
        url: `${apis.pushover}/1/messages.json`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          token,
          user,
          title: message.title,
          message: message.body,
          ...(message.link ? { url: message.link } : {}),
        }).toString(),
        configured: true,
      }),
    };
  },

  slack(text) {
    const web = /^https:\/\/hooks\.slack\.com\/services\/(.*)$/.exec(text);
    const tokens = segments(web ? web[1] : text.slice('slack://'.length));
    if (tokens.length !== 3 || !tokens.every((token) => /^[A-Za-z0-9]+$/.test(token))) {
      refuse(
        'A Slack URL is slack://tokenA/tokenB/tokenC, or the incoming webhook URL https://hooks.slack.com/services/….',
      );
    }
    return {
      scheme: 'slack',
      masked: `slack://${tokens[0]}/${tokens[1]}/${MASK}`,
      send: (message, apis) => ({
        kind: 'http',
        method: 'POST',
        url: `${apis.slack}/services/${tokens.join('/')}`,
        headers: json,
        body: JSON.stringify({ text: plain(message) }),
        configured: true,
      }),
    };
  },

  matrix(text, scheme, allowPrivate) {
    const url = hosted(text, scheme, allowPrivate);
    const room = decodeURIComponent(url.pathname.slice(1));
    if (!/^![^/:]+:[^/]+$/.test(room)) refuse('A Matrix URL names a room id: matrix://user:token@host/!room:server.');
    const token = url.password || url.username;
    if (!token) refuse('A Matrix URL carries an access token: matrix://user:token@host/!room:server.');
    const user = url.password ? url.username : null;
    return {
      scheme: 'matrix',
      masked: `${scheme}://${user ?? ''}${user ? ':' : ''}${MASK}@${url.host}/${room}`,
      send: (message) => ({
        kind: 'http',
        method: 'PUT',
        // The transaction id is the message's: a retried send of the same message is taken once by the server.
        url: `${url.origin}/_matrix/client/v3/rooms/${encodeURIComponent(room)}/send/m.room.message/${encodeURIComponent(message.id)}`,
        headers: { ...json, authorization: `Bearer ${decodeURIComponent(token)}` },
        body: JSON.stringify({ msgtype: 'm.text', body: plain(message) }),
        configured: false,
      }),
    };
  },

  mailto(text) {
    const to = text
      .replace(/^mailto:(\/\/)?/, '')
      .split(',')
      .map((address) => decodeURIComponent(address.trim()));
    if (to.length > 10 || !to.every((address) => /^[^\s@:/]+@[^\s@:/]+\.[^\s@:/]+$/.test(address))) {
      refuse(
        'A mailto URL names up to 10 addresses: mailto://someone@example.com[,other@example.com] (sent through SMTP_URL).',
      );
    }
    return { scheme: 'mailto', masked: `mailto://${to.join(',')}`, send: () => ({ kind: 'mail', to }) };
  },

  json(text, scheme, allowPrivate) {
    const url = hosted(text, scheme, allowPrivate);
    const authorization = url.username ? basic(url.username, url.password) : null;
    const target = `${url.origin}${url.pathname}${url.search}`;
    // Services that take a JSON POST put their secret in the path or the query (a hook id, a key): both are
    // masked whole, as is a user given without a password (a token); the host is what a person recognises.
    const user = url.username ? (url.password ? url.username : MASK) : null;
    return {
      scheme: 'json',
      masked: maskedOf(scheme, url, user, url.pathname !== '/' || url.search ? [MASK] : []),
      send: (message) => ({
        kind: 'http',
        method: 'POST',
        url: target,
        headers: { ...json, ...(authorization ? { authorization } : {}) },
        body: JSON.stringify(message),
        configured: false,
      }),
    };
  },
};

/** The scheme part of a target URL and its https variant, as people write them in Apprise-style configuration. */
const SCHEME_OF: Record<string, Scheme> = {
  ntfy: 'ntfy',
  ntfys: 'ntfy',
  gotify: 'gotify',
  gotifys: 'gotify',
  tgram: 'tgram',
  discord: 'discord',
  pover: 'pover',
  slack: 'slack',
  https: 'slack',
  matrix: 'matrix',
  matrixs: 'matrix',
  mailto: 'mailto',
  json: 'json',
  jsons: 'json',
};

/** A target URL read, or a field error on `url` that says what the scheme's URL looks like. */
export function parseTargetUrl(text: string, allowPrivate: boolean): TargetAddress {
  const trimmed = text.trim();
  if (trimmed.length > 2000) refuse('The url must be at most 2000 characters.');
  const written = /^([a-z]+):/i.exec(trimmed)?.[1].toLowerCase() ?? '';
  const scheme = SCHEME_OF[written];
  if (!scheme || (written === 'https' && !trimmed.startsWith('https://hooks.slack.com/'))) {
    refuse(
      `The url's scheme must be one of ntfy(s), gotify(s), tgram, discord, pover, slack, matrix(s), mailto or json(s) (got "${written}").`,
    );
  }
  return parsers[scheme](trimmed.replace(/^[a-z]+:/i, `${written}:`), written, allowPrivate);
}
