import type { Request, Response, Router } from 'express';
import { RELEASE_DOWNLOADS_PATH, RELEASE_PUBLIC_KEY_FILES, RELEASE_SIGNATURE_FILE, RELEASE_SUMS_FILE } from '@gp-gateway/protocol';
import type { ConnectionWithPresence } from '../../../infrastructure/store/store.ts';
import { agentVersionText } from '../agentVersionView.ts';
import { installSteps } from '../installSteps.ts';
import type { PageContext } from '../pageContext.ts';
import { describeStatus, field, problemOf } from '../pageParts.ts';
import { render } from '../views.ts';
import { writeCheckRows } from '../writeCheckView.ts';

/** How often the page asks for its agent's status (assets/connect.js); presence changes within a second of a hello or a close. */
const POLL_MS = 2_000;

/**
 * The guided connection (issue 36 item 6): one page per connection that takes a customer's IT from
 * "download the agent" to "connected": the programs with their checksums from the gateway's release
 * folder, the install commands with a copy button each, and a live status (assets/connect.js polls
 * `live`, a fragment rendered here, escaped like every page) from waiting to connected, what to run
 * when offline, writes on or off, the last write check, and the default company chosen among the
 * companies the agent reports.
 */
export function connectPages(
  router: Router,
  { admin, frame, signedIn, adminOnly, userOf, as, releases, publicUrl, redirectWith, takeFlash }: PageContext,
): void {
  async function connectionOf(res: Response, id: string): Promise<ConnectionWithPresence | null> {
    return (await admin.listConnections(userOf(res).orgId)).find((c) => c.id === id && c.id !== 'sandbox') ?? null;
  }

  /** What the live part of the page shows: the state of the connection's agents now. */
  function liveData(connection: ConnectionWithPresence) {
    const agent = connection.agents[0] ?? null;
    const latest = releases?.latestVersion() ?? null;
    return {
      c: connection,
      agent,
      state: agent ? 'connected' : connection.presence.lastSeenAt ? 'offline' : 'waiting',
      status: describeStatus(connection),
      version: agent ? agentVersionText(agent, latest) : null,
      writes: agent?.details?.allowWrites === undefined ? 'not reported by this agent' : agent.details.allowWrites ? 'on' : 'off',
      writeRows: agent?.details?.writeCheck ? writeCheckRows(agent.details.writeCheck) : [],
      writeCheckedAt: agent?.details?.writeCheck?.checkedAt ?? null,
    };
  }

  async function page(req: Request, res: Response): Promise<void> {
    const connection = await connectionOf(res, String(req.params.id));
    if (!connection)
      return render(res, 404, 'message', await frame(res), {
        title: 'Not found',
        heading: 'Not found',
        text: 'Your organisation has no such connection.',
      });
    const release = releases?.current() ?? null;
    const flash = await takeFlash(res, 'connect');
    render(res, 200, 'connect', await frame(res), {
      title: `Connect ${connection.name}`,
      page: 'connections',
      ...liveData(connection),
      install: installSteps(publicUrl()),
      release: release && {
        version: release.manifest.version,
        signed: release.signed,
        files: release.manifest.files.map((file) => ({
          ...file,
          href: `${RELEASE_DOWNLOADS_PATH}/${file.name}`,
          mb: (file.bytes / 1e6).toFixed(1),
        })),
        checks: [RELEASE_SUMS_FILE, ...(release.signed ? [RELEASE_SIGNATURE_FILE, ...RELEASE_PUBLIC_KEY_FILES] : [])].map((name) => ({
          name,
          href: `${RELEASE_DOWNLOADS_PATH}/${name}`,
        })),
      },
      pollMs: POLL_MS,
      canChange: userOf(res).role === 'admin',
      ...flash,
    });
  }

  router.get('/connections/:id/connect', signedIn, page);

  router.get('/connections/:id/live', signedIn, async (req, res) => {
    const connection = await connectionOf(res, String(req.params.id));
    if (!connection) return void res.status(404).type('text').send('Your organisation has no such connection.');
    render(res, 200, 'connect-live', await frame(res), { ...liveData(connection), canChange: userOf(res).role === 'admin' });
  });

  router.post('/connections/:id/connect/default-company', signedIn, adminOnly, async (req, res) => {
    // Back to this page either way (post/redirect/get): reloading it sends nothing again.
    const back = `/dashboard/connections/${encodeURIComponent(String(req.params.id))}/connect`;
    try {
      const company = field(req, 'company');
      const updated = await as(req, res).setReportedDefaultCompany(userOf(res).orgId, String(req.params.id), company || null);
      await redirectWith(
        res,
        { page: 'connect', notice: `The default company of "${updated.name}" is ${updated.defaultCompany ?? 'none'}.` },
        back,
      );
    } catch (error) {
      await redirectWith(res, { page: 'connect', problem: problemOf(error) }, back);
    }
  });
}
