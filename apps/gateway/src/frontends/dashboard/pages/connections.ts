import type { Request, Response, Router } from 'express';
import { DEFAULT_LIMITS, effectiveLimits } from '../../../core/limits/limits.ts';
import type { AgentSessionInfo, LimitOverrides } from '../../../infrastructure/store/store.ts';
import { agentVersionText } from '../agentVersionView.ts';
import { writableObjects } from '../../../core/writes/writableObjects.ts';
import { installSteps } from '../installSteps.ts';
import type { PageContext } from '../pageContext.ts';
import { describeStatus, field, fields, originOf, problemOf, secretShown } from '../pageParts.ts';
import { render } from '../views.ts';
import { writeCheckRows } from '../writeCheckView.ts';

/** The connections page: create, default company, writable objects, agent token rotation and revocation, the organisation's limits. */
export function connectionsPages(router: Router, { admin, frame, signedIn, adminOnly, userOf, as, releases }: PageContext): void {
  async function connectionsPage(req: Request, res: Response, status: number, extra: Record<string, unknown> = {}): Promise<void> {
    const user = userOf(res);
    const [connections, org] = await Promise.all([admin.listConnections(user.orgId), admin.findOrganisation(user.orgId)]);
    const limits = effectiveLimits(org!.limits, DEFAULT_LIMITS);
    render(res, status, 'connections', await frame(res), {
      title: 'Connections',
      page: 'connections',
      connections,
      org,
      limits: `${limits.requestsPerWindow} requests per ${limits.windowSeconds} s per key; ${limits.maxInFlightPerConnection} requests in flight per connection.`,
      writable: writableObjects(),
      describeStatus,
      agentVersion: (agent: AgentSessionInfo) => agentVersionText(agent, releases?.latestVersion() ?? null),
      writeCheckRows,
      canChange: user.role === 'admin',
      gateway: originOf(req),
      ...extra,
    });
  }

  router.get('/connections', signedIn, (req, res) => connectionsPage(req, res, 200));

  router.post('/connections', signedIn, adminOnly, async (req, res) => {
    try {
      const { connection, agentToken } = await as(req, res).createConnection({
        orgId: userOf(res).orgId,
        name: field(req, 'name'),
        defaultCompany: field(req, 'defaultCompany') || null,
      });
      await connectionsPage(req, res, 201, {
        secret: secretShown(`The agent token of "${connection.name}"`, agentToken, 'agent token'),
        install: installSteps(originOf(req)),
        createdId: connection.id,
      });
    } catch (error) {
      await connectionsPage(req, res, 400, { problem: problemOf(error) });
    }
  });

  router.post('/connections/:id/default-company', signedIn, adminOnly, async (req, res) => {
    try {
      const company = field(req, 'company');
      const updated = await as(req, res).setReportedDefaultCompany(userOf(res).orgId, String(req.params.id), company || null);
      await connectionsPage(req, res, 200, { notice: `The default company of "${updated.name}" is ${updated.defaultCompany ?? 'none'}.` });
    } catch (error) {
      await connectionsPage(req, res, 400, { problem: problemOf(error) });
    }
  });

  router.post('/connections/:id/whitelist', signedIn, adminOnly, async (req, res) => {
    try {
      const updated = await as(req, res).setWriteWhitelist(userOf(res).orgId, String(req.params.id), fields(req, 'objects'));
      await connectionsPage(req, res, 200, { notice: `Writable on "${updated.name}": ${updated.writeWhitelist.join(', ') || 'nothing'}.` });
    } catch (error) {
      await connectionsPage(req, res, 400, { problem: problemOf(error) });
    }
  });

  router.post('/connections/:id/rotate-token', signedIn, adminOnly, async (req, res) => {
    try {
      const { connection, agentToken } = await as(req, res).rotateAgentToken(userOf(res).orgId, String(req.params.id));
      await connectionsPage(req, res, 200, {
        secret: secretShown(`The new agent token of "${connection.name}"`, agentToken, 'agent token'),
        install: installSteps(originOf(req)),
        createdId: connection.id,
        notice: `"${connection.name}" has a new agent token: agents on the old one are dropped and cannot reconnect with it.`,
      });
    } catch (error) {
      await connectionsPage(req, res, 400, { problem: problemOf(error) });
    }
  });

  router.get('/connections/:id/revoke-token', signedIn, adminOnly, async (req, res) => {
    const connection = (await admin.listConnections(userOf(res).orgId)).find((c) => c.id === req.params.id && c.id !== 'sandbox');
    if (!connection) return connectionsPage(req, res, 404, { problem: 'Your organisation has no such connection.' });
    render(res, 200, 'confirm', await frame(res), {
      title: 'Revoke an agent token',
      page: 'connections',
      question: `Revoke the agent token of "${connection.name}"?`,
      consequence: 'Its agents are dropped at once and no agent can connect until you rotate the token to a new one.',
      action: `/dashboard/connections/${connection.id}/revoke-token`,
      confirm: 'Revoke the token',
      back: '/dashboard/connections',
    });
  });

  router.post('/connections/:id/revoke-token', signedIn, adminOnly, async (req, res) => {
    try {
      const connection = await as(req, res).revokeAgentToken(userOf(res).orgId, String(req.params.id));
      await connectionsPage(req, res, 200, { notice: `The agent token of "${connection.name}" is revoked; its agents are dropped.` });
    } catch (error) {
      await connectionsPage(req, res, 400, { problem: problemOf(error) });
    }
  });

  router.post('/limits', signedIn, adminOnly, async (req, res) => {
    try {
      const number = (name: string): number | null => (field(req, name) === '' ? null : Number(field(req, name)));
      const changes: Partial<LimitOverrides> = {
        requestsPerWindow: number('requests'),
        windowSeconds: number('window'),
        maxInFlightPerConnection: number('inFlight'),
      };
      await as(req, res).setLimits(userOf(res).orgId, changes);
      await connectionsPage(req, res, 200, { notice: 'Limits saved; running gateways apply them within 5 seconds.' });
    } catch (error) {
      await connectionsPage(req, res, 400, { problem: problemOf(error) });
    }
  });
}
