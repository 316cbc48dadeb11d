import type { Request, Response, Router } from 'express';
import { DISABLED_BY_ADMIN, type EndpointView, type WebhookEndpoints } from '../../../core/webhooks/webhookEndpoints.ts';
import type { Store } from '../../../infrastructure/store/store.ts';
import type { PageContext } from '../pageContext.ts';
import { field, problemOf } from '../pageParts.ts';
import { render, time } from '../views.ts';

/** What the webhooks pages work with: the endpoints service, and the store for deliveries and their attempts. */
export interface DashboardWebhooks {
  endpoints: WebhookEndpoints;
  store: Store;
}

/** How many of an endpoint's deliveries its page shows, newest first. */
const RECENT_DELIVERIES = 25;

const list = (text: string): string[] =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

/** An endpoint's state in words: active, or disabled (when, why), and failing since when. */
function stateOf(e: EndpointView): string {
  if (e.disabledAt !== null) return `disabled ${time(e.disabledAt)}: ${e.disabledReason ?? ''}`;
  if (e.failingSince !== null) return `active; failing since ${time(e.failingSince)}`;
  return 'active';
}

/**
 * The webhooks pages (docs/operations.md#dashboard): an organisation's endpoints, created with a
 * signing secret shown once, edited, disabled and enabled, deleted and their secret rotated after a
 * confirmation, a test event sent; each endpoint's recent deliveries with their attempts, a failed
 * one sent again, the failed ones since a time recovered. Every form answers with a redirect
 * (PageContext.redirectWith); the service's refusals (AdminError) are the page's problem.
 */
export function webhooksPages(router: Router, context: PageContext, { endpoints, store }: DashboardWebhooks): void {
  const { frame, signedIn, adminOnly, userOf, redirectWith, takeFlash, actorOf } = context;
  /** The endpoints service acting as the signed-in user, so that each change is in the audit log under their name. */
  const as = (req: Request, res: Response) => endpoints.by(actorOf(req, res));
  const orgOf = (res: Response) => userOf(res).orgId;
  const idOf = (req: Request) => String(req.params.id);
  const deliveriesPath = (id: string) => `webhooks/${encodeURIComponent(id)}/deliveries`;

  /** Runs a form's change; an AdminError becomes the problem shown on `page`. */
  async function answering(res: Response, page: string, change: () => Promise<void>): Promise<void> {
    try {
      await change();
    } catch (error) {
      await redirectWith(res, { page, problem: problemOf(error) });
    }
  }

  router.get('/webhooks', signedIn, async (_req, res) => {
    const orgId = orgOf(res);
    const [all, flash] = await Promise.all([endpoints.list(orgId), takeFlash(res, 'webhooks')]);
    render(res, 200, 'webhooks', await frame(res), {
      title: 'Webhooks',
      page: 'webhooks',
      endpoints: all,
      stateOf,
      disabledByFailures: all.filter((e) => e.disabledAt !== null && e.disabledReason !== DISABLED_BY_ADMIN),
      canChange: userOf(res).role === 'admin',
      ...flash,
    });
  });

  router.post('/webhooks', signedIn, adminOnly, (req, res) =>
    answering(res, 'webhooks', async () => {
      const connections = list(field(req, 'connections'));
      const { endpoint, secret } = await as(req, res).create(orgOf(res), {
        url: field(req, 'url'),
        eventTypes: list(field(req, 'eventTypes')),
        connectionIds: connections.length ? connections : null,
        description: field(req, 'description'),
      });
      await redirectWith(res, {
        page: 'webhooks',
        notice: `Endpoint ${endpoint.url} is created; its signing secret is below, shown this once.`,
        secret: {
          title: `The signing secret of ${endpoint.url}`,
          value: secret,
          explanation:
            'This secret is shown only now; the gateway keeps it sealed and never shows it again. Give it to the receiver, which verifies each delivery with it.',
        },
      });
    }),
  );

  router.get('/webhooks/:id/edit', signedIn, adminOnly, (req, res) =>
    answering(res, 'webhooks', async () => {
      const endpoint = await endpoints.get(orgOf(res), idOf(req));
      render(res, 200, 'webhook-edit', await frame(res), { title: 'Edit a webhook endpoint', page: 'webhooks', endpoint });
    }),
  );

  router.post('/webhooks/:id/edit', signedIn, adminOnly, (req, res) =>
    answering(res, 'webhooks', async () => {
      const connections = list(field(req, 'connections'));
      const endpoint = await as(req, res).update(orgOf(res), idOf(req), {
        url: field(req, 'url'),
        eventTypes: list(field(req, 'eventTypes')),
        connectionIds: connections.length ? connections : null,
        description: field(req, 'description'),
      });
      await redirectWith(res, { page: 'webhooks', notice: `${endpoint.url} is changed.` });
    }),
  );

  router.post('/webhooks/:id/disable', signedIn, adminOnly, (req, res) =>
    answering(res, 'webhooks', async () => {
      const endpoint = await as(req, res).disable(orgOf(res), idOf(req));
      await redirectWith(res, {
        page: 'webhooks',
        notice: `${endpoint.url} is disabled: nothing is sent to it, and new events are not queued for it, until it is enabled.`,
      });
    }),
  );

  router.post('/webhooks/:id/enable', signedIn, adminOnly, (req, res) =>
    answering(res, 'webhooks', async () => {
      const endpoint = await as(req, res).enable(orgOf(res), idOf(req));
      await redirectWith(res, { page: 'webhooks', notice: `${endpoint.url} is enabled: its waiting deliveries are sent now.` });
    }),
  );

  router.get('/webhooks/:id/delete', signedIn, adminOnly, (req, res) =>
    answering(res, 'webhooks', async () => {
      const endpoint = await endpoints.get(orgOf(res), idOf(req));
      render(res, 200, 'confirm', await frame(res), {
        title: 'Delete a webhook endpoint',
        page: 'webhooks',
        question: `Delete the endpoint ${endpoint.url}?`,
        consequence: 'Nothing more is sent to it, and its deliveries and their attempts are deleted with it. This cannot be undone.',
        action: `/dashboard/webhooks/${encodeURIComponent(endpoint.id)}/delete`,
        confirm: `Delete endpoint ${endpoint.url}`,
        danger: true,
        back: '/dashboard/webhooks',
      });
    }),
  );

  router.post('/webhooks/:id/delete', signedIn, adminOnly, (req, res) =>
    answering(res, 'webhooks', async () => {
      const endpoint = await endpoints.get(orgOf(res), idOf(req));
      await as(req, res).delete(orgOf(res), endpoint.id);
      await redirectWith(res, { page: 'webhooks', notice: `${endpoint.url} is deleted with its deliveries.` });
    }),
  );

  router.get('/webhooks/:id/rotate', signedIn, adminOnly, (req, res) =>
    answering(res, 'webhooks', async () => {
      const endpoint = await endpoints.get(orgOf(res), idOf(req));
      const earlier = endpoint.rotating
        ? ` The secret it replaced last time, which signs until ${time(endpoint.previousSecretExpiresAt)}, stops signing at once.`
        : '';
      render(res, 200, 'confirm', await frame(res), {
        title: 'Rotate a signing secret',
        page: 'webhooks',
        question: `Rotate the signing secret of ${endpoint.url}?`,
        consequence:
          'A new secret is made and shown once. The old secret keeps signing every delivery, beside the new one, for 24 hours; ' +
          `give the receiver the new secret before then.${earlier}`,
        action: `/dashboard/webhooks/${encodeURIComponent(endpoint.id)}/rotate`,
        confirm: `Rotate signing secret of ${endpoint.url}`,
        back: '/dashboard/webhooks',
      });
    }),
  );

  router.post('/webhooks/:id/rotate', signedIn, adminOnly, (req, res) =>
    answering(res, 'webhooks', async () => {
      const { endpoint, secret } = await as(req, res).rotate(orgOf(res), idOf(req));
      await redirectWith(res, {
        page: 'webhooks',
        notice: `${endpoint.url} has a new signing secret; the old one keeps signing beside it until ${time(endpoint.previousSecretExpiresAt)}.`,
        secret: {
          title: `The new signing secret of ${endpoint.url}`,
          value: secret,
          explanation: 'This secret is shown only now; the gateway keeps it sealed and never shows it again. Give it to the receiver.',
        },
      });
    }),
  );

  router.post('/webhooks/:id/test', signedIn, adminOnly, (req, res) =>
    answering(res, 'webhooks', async () => {
      const id = idOf(req);
      const eventId = await endpoints.sendTest(orgOf(res), id);
      await redirectWith(res, {
        page: deliveriesPath(id),
        notice: `Test event ${eventId} (webhook.test) is queued; it is sent within a second. Reload to see its attempt.`,
      });
    }),
  );

  router.get('/webhooks/:id/deliveries', signedIn, (req, res) =>
    answering(res, 'webhooks', async () => {
      const orgId = orgOf(res);
      const endpoint = await endpoints.get(orgId, idOf(req));
      const [found, flash] = await Promise.all([
        store.listWebhookDeliveries({ orgId, endpointId: endpoint.id, before: null, limit: RECENT_DELIVERIES }),
        takeFlash(res, deliveriesPath(endpoint.id)),
      ]);
      const deliveries = await Promise.all(
        found.deliveries.map(async (d) => ({ ...d, tried: await store.listWebhookAttempts(orgId, d.id) })),
      );
      render(res, 200, 'webhook-deliveries', await frame(res), {
        title: `Deliveries to ${endpoint.url}`,
        page: 'webhooks',
        endpoint,
        state: stateOf(endpoint),
        deliveries,
        canChange: userOf(res).role === 'admin',
        ...flash,
      });
    }),
  );

  router.post('/webhooks/:id/deliveries/:delivery/resend', signedIn, adminOnly, (req, res) =>
    answering(res, deliveriesPath(idOf(req)), async () => {
      const delivery = await endpoints.resend(orgOf(res), String(req.params.delivery));
      await redirectWith(res, {
        page: deliveriesPath(delivery.endpointId),
        notice: `Delivery of ${delivery.eventId} is sent again now.`,
      });
    }),
  );

  router.post('/webhooks/:id/recover', signedIn, adminOnly, (req, res) =>
    answering(res, deliveriesPath(idOf(req)), async () => {
      const id = idOf(req);
      const since = sinceOf(field(req, 'since'));
      if (since === null)
        return redirectWith(res, { page: deliveriesPath(id), problem: 'Give the date and time (UTC) to recover failed deliveries since.' });
      const count = await endpoints.recover(orgOf(res), id, since);
      await redirectWith(res, {
        page: deliveriesPath(id),
        notice:
          count === 0
            ? `No failed deliveries since ${time(since.toISOString())}.`
            : `${count === 1 ? '1 failed delivery' : `${count} failed deliveries`} since ${time(since.toISOString())} ${count === 1 ? 'is' : 'are'} sent again now.`,
      });
    }),
  );
}

/** A `datetime-local` value (`2026-03-01T14:05`), read as UTC as the dashboard's times are; null when it is not one. */
function sinceOf(text: string): Date | null {
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,3})?)?$/.test(text)) return null;
  const at = new Date(`${text}Z`);
  return Number.isNaN(at.getTime()) ? null : at;
}
