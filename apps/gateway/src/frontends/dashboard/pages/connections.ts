import type { Request, Response, Router } from 'express';
import { rotationOverlapNamed } from '../../../core/auth/rotationOverlap.ts';
import { DEFAULT_LIMITS, effectiveLimits } from '../../../core/limits/limits.ts';
import type { AgentSessionInfo, LimitOverrides } from '../../../infrastructure/store/store.ts';
import { agentVersionText } from '../agentVersionView.ts';
import { writableObjects } from '../../../core/writes/writableObjects.ts';
import { installSteps } from '../installSteps.ts';
import type { PageContext } from '../pageContext.ts';
import { describeStatus, field, fields, overlapChoices, problemOf, secretShown } from '../pageParts.ts';
import { render, time } from '../views.ts';
import { writeCheckRows } from '../writeCheckView.ts';

/**
 * The connections page: create, default company, writable objects, agent token rotation (after a
 * confirmation, with the old token's overlap) and revocation, the install steps again, the
 * organisation's limits. Every form answers with a redirect back to the page (PageContext.redirectWith).
 */
export function connectionsPages(router: Router, context: PageContext): void {
  const { admin, frame, signedIn, adminOnly, userOf, as, redirectWith, takeFlash, publicUrl, releases } = context;

  async function connectionsPage(req: Request, res: Response): Promise<void> {
    const user = userOf(res);
    const [connections, org, flash] = await Promise.all([
      admin.listConnections(user.orgId),
      admin.findOrganisation(user.orgId),
      takeFlash(res, 'connections'),
    ]);
    const limits = effectiveLimits(org!.limits, DEFAULT_LIMITS);
    render(res, 200, 'connections', await frame(res), {
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
      gateway: publicUrl(),
      ...flash,
    });
  }

  /** A live connection of the signed-in user's organisation, or null. */
  async function liveConnection(res: Response, id: unknown) {
    return (await admin.listConnections(userOf(res).orgId)).find((c) => c.id === id && c.id !== 'sandbox') ?? null;
  }

  const NO_SUCH_CONNECTION = 'Your organisation has no such connection.';
  const answer = (res: Response, notice: string) => redirectWith(res, { page: 'connections', notice });
  const refuse = (res: Response, error: unknown) => redirectWith(res, { page: 'connections', problem: problemOf(error) });

  router.get('/connections', signedIn, (req, res) => connectionsPage(req, res));

  router.post('/connections', signedIn, adminOnly, async (req, res) => {
    try {
      const { connection, agentToken } = await as(req, res).createConnection({
        orgId: userOf(res).orgId,
        name: field(req, 'name'),
        defaultCompany: field(req, 'defaultCompany') || null,
      });
      await redirectWith(res, {
        page: 'connections',
        notice: `Connection "${connection.name}" is created; its agent token is below, shown this once.`,
        secret: secretShown(`The agent token of "${connection.name}"`, agentToken, 'agent token'),
        install: installSteps(publicUrl()),
        createdId: connection.id,
      });
    } catch (error) {
      await refuse(res, error);
    }
  });

  router.post('/connections/:id/default-company', signedIn, adminOnly, async (req, res) => {
    try {
      const company = field(req, 'company');
      const updated = await as(req, res).setReportedDefaultCompany(userOf(res).orgId, String(req.params.id), company || null);
      await answer(res, `The default company of "${updated.name}" is ${updated.defaultCompany ?? 'none'}.`);
    } catch (error) {
      await refuse(res, error);
    }
  });

  router.post('/connections/:id/whitelist', signedIn, adminOnly, async (req, res) => {
    try {
      const updated = await as(req, res).setWriteWhitelist(userOf(res).orgId, String(req.params.id), fields(req, 'objects'));
      await answer(res, `Writable on "${updated.name}": ${updated.writeWhitelist.join(', ') || 'nothing'}.`);
    } catch (error) {
      await refuse(res, error);
    }
  });

  // The install steps again, at any time: without the token, which is shown only when made.
  router.get('/connections/:id/install', signedIn, async (req, res) => {
    const connection = await liveConnection(res, req.params.id);
    if (!connection) return redirectWith(res, { page: 'connections', problem: NO_SUCH_CONNECTION });
    render(res, 200, 'install', await frame(res), {
      title: `Install the agent of "${connection.name}"`,
      page: 'connections',
      connection,
      install: installSteps(publicUrl()),
    });
  });

  router.get('/connections/:id/rotate-token', signedIn, adminOnly, async (req, res) => {
    const connection = await liveConnection(res, req.params.id);
    if (!connection) return redirectWith(res, { page: 'connections', problem: NO_SUCH_CONNECTION });
    const now = new Date();
    const agents = connection.presence.connectedAgents;
    const connected =
      agents === 0 ? 'No agent is connected now.' : `${agents === 1 ? '1 agent is' : `${agents} agents are`} connected now.`;
    const earlier = connection.previousAgentTokenUntil
      ? ` The token it replaced last time, which works until ${time(connection.previousAgentTokenUntil)}, stops working at once.`
      : '';
    render(res, 200, 'confirm', await frame(res), {
      title: 'Rotate an agent token',
      page: 'connections',
      question: `Rotate the agent token of "${connection.name}"?`,
      consequence:
        `A new token is made and shown once. ${connected} Agents on the current token keep serving for the time you choose; ` +
        'then they are disconnected and cannot connect with it again, so install the new token on every agent before then. ' +
        `Choose "at once" if the token may have leaked.${earlier}`,
      choices: overlapChoices(now, 'current token'),
      choicesOf: 'current token',
      action: `/dashboard/connections/${connection.id}/rotate-token`,
      confirm: `Rotate agent token of “${connection.name}”`,
      back: '/dashboard/connections',
    });
  });

  router.post('/connections/:id/rotate-token', signedIn, adminOnly, async (req, res) => {
    const keepOldFor = rotationOverlapNamed(field(req, 'keepOldFor'));
    if (!keepOldFor) return redirectWith(res, { page: 'connections', problem: 'Choose how long the current token keeps working.' });
    try {
      const { connection, agentToken, oldWorksUntil } = await as(req, res).rotateAgentToken(
        userOf(res).orgId,
        String(req.params.id),
        keepOldFor,
      );
      await redirectWith(res, {
        page: 'connections',
        secret: secretShown(`The new agent token of "${connection.name}"`, agentToken, 'agent token'),
        install: installSteps(publicUrl()),
        createdId: connection.id,
        notice: oldWorksUntil
          ? `"${connection.name}" has a new agent token. Agents on the old one keep serving until ${time(oldWorksUntil.toISOString())}; then they are disconnected. Restart each agent with the new token before then.`
          : `"${connection.name}" has a new agent token: agents on the old one are dropped and cannot reconnect with it.`,
      });
    } catch (error) {
      await refuse(res, error);
    }
  });

  router.post('/connections/:id/end-old-token', signedIn, adminOnly, async (req, res) => {
    try {
      const connection = await as(req, res).endAgentTokenOverlap(userOf(res).orgId, String(req.params.id));
      await answer(res, `The old agent token of "${connection.name}" no longer works; agents still on it are dropped.`);
    } catch (error) {
      await refuse(res, error);
    }
  });

  router.get('/connections/:id/revoke-token', signedIn, adminOnly, async (req, res) => {
    const connection = await liveConnection(res, req.params.id);
    if (!connection) return redirectWith(res, { page: 'connections', problem: NO_SUCH_CONNECTION });
    render(res, 200, 'confirm', await frame(res), {
      title: 'Revoke an agent token',
      page: 'connections',
      question: `Revoke the agent token of "${connection.name}"?`,
      consequence:
        'Its agents (also those on a token still in its overlap) are dropped at once and no agent can connect until you rotate the token to a new one.',
      action: `/dashboard/connections/${connection.id}/revoke-token`,
      confirm: `Revoke agent token of “${connection.name}”`,
      danger: true,
      back: '/dashboard/connections',
    });
  });

  router.post('/connections/:id/revoke-token', signedIn, adminOnly, async (req, res) => {
    try {
      const connection = await as(req, res).revokeAgentToken(userOf(res).orgId, String(req.params.id));
      await answer(res, `The agent token of "${connection.name}" is revoked; its agents are dropped.`);
    } catch (error) {
      await refuse(res, error);
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
      await answer(res, 'Limits saved; running gateways apply them within 5 seconds.');
    } catch (error) {
      await refuse(res, error);
    }
  });
}
