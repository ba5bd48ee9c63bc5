import { type Request, Router } from 'express';
import stableStringify from 'safe-stable-stringify';

import { sha256Hex } from '../../src/auth/secrets';
import type { Config } from '../../src/platform/config';
import { AppError, asAppError } from '../../src/platform/errors';
import type { Services } from '../../src/runtime/services';
import { presentSubscription } from '../../src/subscriptions/record-shape';
import { INBOUND_CREATE_DEFAULTS } from '../../src/subscriptions/subscription.fields';
import { InboundTokenKind, type InboundWebhookToken } from '../../src/webhooks/inbound-token.entity';
import { json, normalise } from '../body';
import { FormReader } from '../form';
import { httpStatusOf, toErrorBody } from '../http-errors';
import { fromParserError } from '../http-errors';
import { readCreateForm, readPatchForm } from './subscriptions.routes';

const EVENTS = ['created', 'updated', 'deleted', 'refunded', 'canceled'] as const;
type InboundEvent = (typeof EVENTS)[number];

const MESSAGES: Record<InboundEvent, string> = {
  created: 'Subscription created successfully',
  updated: 'Subscription updated successfully',
  deleted: 'Subscription deleted successfully',
  refunded: 'Subscription refunded successfully',
  canceled: 'Subscription cancelled successfully',
};

interface Answer {
  status: number;
  body: unknown;
}

/**
 * Operation 25: the five subscription events, run through the same service calls as the REST operations,
 * acting as the token's owner. CREATE tokens only create; MANAGE tokens update, delete, refund and cancel.
 */
export function inboundWebhookRoutes(services: Services, config: Pick<Config, 'serviceShortName'>): Router {
  const router = Router();
  const header = (req: Request, name: string) => req.header(`x-${config.serviceShortName}-webhook-${name}`)?.trim();

  router.post('/webhook/user/data/:token', async (req, res, next) => {
    const token = await services.inboundTokens.resolve(String(req.params.token));
    if (!token) return next(AppError.unauthenticated('Unknown or revoked webhook token'));
    if (!/^application\/([a-z.+-]*\+)?json\b/i.test(req.header('content-type') ?? '')) {
      return next(new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json'));
    }
    const key = req.header('idempotency-key')?.trim();
    if (key !== undefined && (key.length === 0 || key.length > 200))
      return next(AppError.field('Idempotency-Key', 'The Idempotency-Key must be 1 to 200 characters.'));
    json(req, res, (parseError?: unknown) => {
      // A request's answer: its outcome, or its refusal; a server failure (5xx) is thrown, never an answer.
      const answered = async (): Promise<Answer> => {
        try {
          if (parseError) throw parseError;
          return await handle(req, token);
        } catch (error) {
          const appError = fromParserError(error) ?? asAppError(error);
          if (httpStatusOf(appError) >= 500) throw error;
          return { status: httpStatusOf(appError), body: toErrorBody(appError) };
        }
      };
      // With a key, the request runs once: the same key answers as the first did and changes nothing.
      const fingerprint = () =>
        sha256Hex(`${header(req, 'topic') ?? ''}\n${header(req, 'event') ?? ''}\n${stableStringify(req.body) ?? ''}`);
      (key ? services.inboundTokens.once(token.id, key, fingerprint(), answered) : answered()).then(
        (answer) => void res.status(answer.status).json(answer.body),
        next,
      );
    });
  });

  /**
   * The event, from the topic header as the original reads it (`subscription.<event>`), or from the event
   * header when no topic is sent; headers that are sent must agree with each other.
   */
  function inboundEvent(req: Request): InboundEvent {
    const topic = header(req, 'topic');
    const event = header(req, 'event');
    const resource = header(req, 'resource');
    const fromTopic = topic === undefined ? undefined : /^subscription\.([a-z]+)$/.exec(topic)?.[1];
    const named = fromTopic ?? event;
    if (topic !== undefined && fromTopic === undefined) {
      throw AppError.field(
        `x-${config.serviceShortName}-webhook-topic`,
        `The topic must be subscription.<event> with an event among ${EVENTS.join(', ')}.`,
      );
    }
    if (!named || !EVENTS.includes(named as InboundEvent)) {
      throw AppError.field(
        `x-${config.serviceShortName}-webhook-${topic === undefined ? 'event' : 'topic'}`,
        `The event must be one of ${EVENTS.join(', ')}.`,
      );
    }
    if ((event !== undefined && event !== named) || (resource !== undefined && resource !== 'subscription')) {
      throw AppError.badInput(
        'The webhook headers disagree: resource must be "subscription" and topic "subscription.<event>"',
      );
    }
    return named as InboundEvent;
  }

  async function handle(req: Request, token: InboundWebhookToken): Promise<Answer> {
    const event = inboundEvent(req);
    const needed = event === 'created' ? InboundTokenKind.CREATE : InboundTokenKind.MANAGE;
    if (token.kind !== needed) {
      throw new AppError(
        'FORBIDDEN',
        event === 'created' ? 'This token can only manage records' : 'This token can only create records',
      );
    }
    if (req.body === null || typeof req.body !== 'object' || Array.isArray(req.body))
      throw AppError.badInput('The body must be a JSON object');
    const form = new FormReader(normalise(req.body));
    const caller = { userId: token.user, tokenId: null };
    const subscriptions = services.subscriptions;
    if (event === 'created') {
      const record = await subscriptions.create(caller, readCreateForm(form, INBOUND_CREATE_DEFAULTS));
      return {
        status: 200,
        body: { status: true, message: MESSAGES.created, subscription: presentSubscription(record) },
      };
    }
    const id = form.integer('id', { required: true });
    if (event === 'updated') {
      const patch = readPatchForm(form);
      const record = await subscriptions.update(caller, id!, patch);
      return {
        status: 200,
        body: { status: true, message: MESSAGES.updated, subscription: presentSubscription(record) },
      };
    }
    form.done();
    if (event === 'deleted') await subscriptions.remove(caller, id!);
    else if (event === 'refunded') await subscriptions.refund(caller, id!);
    else await subscriptions.cancel(caller, id!);
    return { status: 200, body: { status: true, message: MESSAGES[event] } };
  }

  return router;
}
