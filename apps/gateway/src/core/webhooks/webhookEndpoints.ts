import { randomBytes } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { DESCRIPTION_MAX_LENGTH, nameProblem } from '@gp-gateway/protocol';
import { AdminError, OPERATOR_CLI, type Actor } from '../admin/adminService.ts';
import { addressProblem } from '../../infrastructure/outbound/safeTarget.ts';
import type { Store, WebhookDelivery, WebhookEndpoint } from '../../infrastructure/store/store.ts';
import { newSigningSecret, type SecretBox } from './secretBox.ts';
import { subscriptionProblem, WEBHOOK_TEST } from './webhookEvents.ts';

/** How long the secret before a rotation keeps signing beside the new one (the specification's overlap). */
const ROTATION_OVERLAP_MS = 24 * 3600_000;

/** An endpoint as shown to admins: everything but its secrets. */
export type EndpointView = Omit<WebhookEndpoint, 'sealedSecret' | 'sealedPreviousSecret'> & {
  /** Whether an old secret still signs beside the new one (until previousSecretExpiresAt). */
  rotating: boolean;
};

/** An endpoint just created or rotated, with its signing secret: the one moment the secret is shown. */
export interface EndpointWithSecret {
  endpoint: EndpointView;
  secret: string;
}

export interface EndpointFields {
  url: string;
  /** Event types and patterns (`customer.*`); none: every type. */
  eventTypes?: readonly string[];
  /** Only these connections' events; absent or null: every connection's. */
  connectionIds?: readonly string[] | null;
  description?: string;
}

const MAX_URL_LENGTH = 2_000;

export interface EndpointsOptions {
  store: Store;
  box: SecretBox;
  allowPrivateTargets: boolean;
  now?: () => Date;
  /** Told when deliveries were queued, so that the worker starts on them at once. */
  queued?: () => void;
  /** Who makes the changes, for the audit log; the operator CLI unless given (`by`). */
  actor?: Actor;
}

/** The gateway as the audit log names it, for what it does on its own (an endpoint disabled after failing). */
const GATEWAY: Actor = { name: 'gateway', address: null };

/** The reason an endpoint disabled by an admin (not by its failures, deliveryWorker.ts) is given. */
export const DISABLED_BY_ADMIN = 'disabled by an admin';

/**
 * An organisation's webhook endpoints (docs/api.md#webhooks), for the dashboard and the operator
 * CLI: created with a signing secret shown once, changed, rotated with an overlap, disabled and
 * enabled, deleted; a test event sent; failed deliveries sent again. Secrets are sealed (secretBox.ts)
 * before they reach the store, and opened only to sign (`signingSecrets`).
 */
export class WebhookEndpoints {
  private readonly options: EndpointsOptions;
  private readonly store: Store;
  private readonly box: SecretBox;
  private readonly allowPrivate: boolean;
  private readonly now: () => Date;
  private readonly queued: () => void;
  private readonly actor: Actor;

  constructor(options: EndpointsOptions) {
    this.options = options;
    this.store = options.store;
    this.box = options.box;
    this.allowPrivate = options.allowPrivateTargets;
    this.now = options.now ?? (() => new Date());
    this.queued = options.queued ?? (() => {});
    this.actor = options.actor ?? OPERATOR_CLI;
  }

  /** The same endpoints, with `actor` recorded in the audit log as who made each change. */
  by(actor: Actor): WebhookEndpoints {
    return new WebhookEndpoints({ ...this.options, actor });
  }

  async create(orgId: string, fields: EndpointFields): Promise<EndpointWithSecret> {
    const url = this.checkedUrl(fields.url);
    const secret = newSigningSecret();
    const endpoint = await this.store.createWebhookEndpoint({
      orgId,
      url,
      eventTypes: checkedTypes(fields.eventTypes ?? []),
      connectionIds: checkedConnections(fields.connectionIds ?? null),
      description: checkedDescription(fields.description ?? ''),
      sealedSecret: this.box.seal(secret, orgId),
      at: this.now(),
    });
    await this.audit(endpoint, 'webhook.created', {
      url: endpoint.url,
      events: endpoint.eventTypes,
      connections: endpoint.connectionIds,
      description: endpoint.description,
    });
    return { endpoint: viewOf(endpoint, this.now()), secret };
  }

  async list(orgId: string): Promise<EndpointView[]> {
    const now = this.now();
    return (await this.store.listWebhookEndpoints(orgId)).map((e) => viewOf(e, now));
  }

  async get(orgId: string, id: string): Promise<EndpointView> {
    return viewOf(await this.found(orgId, id), this.now());
  }

  async update(orgId: string, id: string, fields: Partial<EndpointFields>): Promise<EndpointView> {
    const changed = await this.store.updateWebhookEndpoint(
      orgId,
      id,
      {
        ...(fields.url !== undefined && { url: this.checkedUrl(fields.url) }),
        ...(fields.eventTypes !== undefined && { eventTypes: checkedTypes(fields.eventTypes) }),
        ...(fields.connectionIds !== undefined && { connectionIds: checkedConnections(fields.connectionIds) }),
        ...(fields.description !== undefined && { description: checkedDescription(fields.description) }),
      },
      this.now(),
    );
    if (!changed) throw notFound(id);
    await this.audit(changed, 'webhook.updated', {
      url: changed.url,
      events: changed.eventTypes,
      connections: changed.connectionIds,
      description: changed.description,
    });
    return viewOf(changed, this.now());
  }

  /** A new secret, shown once; the old one keeps signing beside it for 24 hours. */
  async rotate(orgId: string, id: string): Promise<EndpointWithSecret> {
    const endpoint = await this.found(orgId, id);
    const now = this.now();
    const secret = newSigningSecret();
    const rotated = await this.store.updateWebhookEndpoint(
      orgId,
      id,
      {
        sealedSecret: this.box.seal(secret, orgId),
        sealedPreviousSecret: endpoint.sealedSecret,
        previousSecretExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString(),
      },
      now,
    );
    if (!rotated) throw notFound(id);
    await this.audit(rotated, 'webhook.secret.rotated', { oldSignsUntil: rotated.previousSecretExpiresAt });
    return { endpoint: viewOf(rotated, now), secret };
  }

  async disable(orgId: string, id: string, reason = DISABLED_BY_ADMIN): Promise<EndpointView> {
    const endpoint = await this.found(orgId, id);
    if (endpoint.disabledAt !== null) return viewOf(endpoint, this.now());
    const disabled = await this.store.disableWebhookEndpoint(orgId, id, reason, this.now());
    if (disabled) await this.audit(disabled, 'webhook.disabled', { reason });
    return viewOf(disabled ?? (await this.found(orgId, id)), this.now());
  }

  /**
   * Disabled by the gateway itself after failing for days (deliveryWorker.ts): the endpoint when this
   * call disabled it, null when it was already disabled or is gone (of two instances, one goes on).
   */
  async disableFailing(orgId: string, id: string, reason: string): Promise<WebhookEndpoint | null> {
    const disabled = await this.store.disableWebhookEndpoint(orgId, id, reason, this.now());
    if (disabled) await this.by(GATEWAY).audit(disabled, 'webhook.disabled', { reason });
    return disabled;
  }

  /** Enabled again: the deliveries that waited are sent, its failing streak starts afresh. */
  async enable(orgId: string, id: string): Promise<EndpointView> {
    const enabled = await this.store.updateWebhookEndpoint(orgId, id, { disabledAt: null, disabledReason: null }, this.now());
    if (!enabled) throw notFound(id);
    await this.audit(enabled, 'webhook.enabled');
    this.queued();
    return viewOf(enabled, this.now());
  }

  async delete(orgId: string, id: string): Promise<void> {
    const endpoint = await this.found(orgId, id);
    if (!(await this.store.deleteWebhookEndpoint(orgId, id))) throw notFound(id);
    await this.audit(endpoint, 'webhook.deleted');
  }

  /** Queues a `webhook.test` event to this endpoint alone (enabled or not: it waits while disabled). */
  async sendTest(orgId: string, id: string): Promise<string> {
    const endpoint = await this.found(orgId, id);
    const now = this.now();
    const eventId = `evt_${randomBytes(12).toString('base64url')}`;
    const body = JSON.stringify({
      id: eventId,
      type: WEBHOOK_TEST,
      connectionId: null,
      company: null,
      object: null,
      recordId: null,
      changedAt: null,
      recordedAt: now.toISOString(),
      data: { endpointId: endpoint.id, message: 'A test event sent from the gp-gateway dashboard or CLI.' },
    });
    await this.store.enqueueWebhookDeliveries([{ orgId, endpointId: id, eventId, eventType: WEBHOOK_TEST, body }], now);
    this.queued();
    return eventId;
  }

  /** Sends a failed delivery again, now (its attempts so far are kept). */
  async resend(orgId: string, deliveryId: string): Promise<WebhookDelivery> {
    const delivery = await this.store.findWebhookDelivery(orgId, deliveryId);
    if (!delivery) throw new AdminError(`no webhook delivery ${deliveryId} in this organisation`);
    if (delivery.status !== 'failed')
      throw new AdminError(`delivery ${deliveryId} is ${delivery.status}: only a failed delivery is sent again`);
    await this.store.retryWebhookDeliveries({ orgId, endpointId: delivery.endpointId, deliveryId }, this.now());
    this.queued();
    return (await this.store.findWebhookDelivery(orgId, deliveryId))!;
  }

  /** Sends again every failed delivery of the endpoint made since `since` (after an outage); how many. */
  async recover(orgId: string, id: string, since: Date): Promise<number> {
    await this.found(orgId, id);
    const count = await this.store.retryWebhookDeliveries({ orgId, endpointId: id, since }, this.now());
    if (count > 0) this.queued();
    return count;
  }

  /** The secrets that sign a delivery now: the current one, and the one before while the overlap lasts. */
  signingSecrets(endpoint: WebhookEndpoint, now: Date): string[] {
    const secrets = [this.box.open(endpoint.sealedSecret, endpoint.orgId)];
    if (
      endpoint.sealedPreviousSecret !== null &&
      endpoint.previousSecretExpiresAt !== null &&
      Date.parse(endpoint.previousSecretExpiresAt) > now.getTime()
    ) {
      secrets.push(this.box.open(endpoint.sealedPreviousSecret, endpoint.orgId));
    }
    return secrets;
  }

  /** An audit entry of the endpoint's organisation; its target names the endpoint by id and URL (the secret never). */
  private audit(endpoint: WebhookEndpoint, action: string, details: Record<string, unknown> | null = null): Promise<void> {
    return this.store.recordAudit({
      orgId: endpoint.orgId,
      at: this.now().toISOString(),
      actor: this.actor.name,
      action,
      target: `${endpoint.id} "${endpoint.url}"`,
      details,
      address: this.actor.address,
    });
  }

  private async found(orgId: string, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.store.findWebhookEndpoint(orgId, id);
    if (!endpoint) throw notFound(id);
    return endpoint;
  }

  /**
   * The URL, refused when it could never be sent to: not http(s), http without the development
   * setting, or an address literal that every delivery would refuse. Names are checked at each
   * delivery (they may resolve elsewhere later).
   */
  private checkedUrl(raw: string): string {
    const text = raw.trim();
    if (text.length > MAX_URL_LENGTH) throw new AdminError(`the URL is longer than ${MAX_URL_LENGTH} characters`);
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new AdminError(`"${text.slice(0, 100)}" is not a URL: give one such as https://example.com/webhooks/gp`);
    }
    if (url.protocol !== 'https:' && !(this.allowPrivate && url.protocol === 'http:'))
      throw new AdminError(`webhook URLs must start with https:// (${url.protocol}// is refused)`);
    if (url.username || url.password) throw new AdminError('a webhook URL cannot hold a user name or password');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (ipaddr.isValid(host)) {
      const problem = addressProblem(host, this.allowPrivate);
      if (problem) throw new AdminError(`webhooks are not sent there: ${problem}`);
    }
    return url.toString();
  }
}

function viewOf(endpoint: WebhookEndpoint, now: Date): EndpointView {
  const { sealedSecret: _secret, sealedPreviousSecret: _previous, ...rest } = endpoint;
  return {
    ...rest,
    rotating: endpoint.previousSecretExpiresAt !== null && Date.parse(endpoint.previousSecretExpiresAt) > now.getTime(),
  };
}

function notFound(id: string): AdminError {
  return new AdminError(`no webhook endpoint ${id} in this organisation`);
}

function checkedTypes(patterns: readonly string[]): string[] {
  const unique = [...new Set(patterns.map((p) => p.trim()).filter(Boolean))];
  const problems = unique.flatMap((p) => {
    const problem = subscriptionProblem(p);
    return problem === null ? [] : [`${p}: ${problem}`];
  });
  if (problems.length) throw new AdminError(`unknown event types: ${problems.join('; ')}`, problems);
  return unique;
}

function checkedConnections(ids: readonly string[] | null): string[] | null {
  if (ids === null) return null;
  const unique = [...new Set(ids.map((id) => id.trim()).filter(Boolean))];
  return unique.length ? unique : null;
}

/** A description as given, trimmed, under the names' text rule (packages/protocol/src/text.ts) and at most DESCRIPTION_MAX_LENGTH characters. */
function checkedDescription(text: string): string {
  const trimmed = text.trim();
  const problem = nameProblem(trimmed, DESCRIPTION_MAX_LENGTH);
  if (problem !== null) throw new AdminError(`the description ${problem}`);
  return trimmed;
}
