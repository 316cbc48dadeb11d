import type { NextFunction, Request, Response } from 'express';
import type { Actor, AdminService } from '../../core/admin/adminService.ts';
import type { DashboardSession, User } from '../../infrastructure/store/store.ts';
import type { DashboardAuth } from './dashboardAuth.ts';
import type { Flash } from './flash.ts';
import type { ReleaseFolder } from '../../infrastructure/releases/releaseFolder.ts';
import { render, type PageFrame } from './views.ts';

/** Who is looking at a dashboard page, worked out once per request (router.ts). */
export interface Visit {
  session: DashboardSession | null;
  sessionId: string | null;
  /** The token every form of the page carries: the session's, or the form cookie's before sign-in. */
  csrf: string;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      visit?: Visit;
    }
  }
}

export const visitOf = (res: Response): Visit => res.locals.visit!;

/** What every page's routes share: the services, the page frame, and the guards. */
export interface PageContext {
  admin: AdminService;
  auth: DashboardAuth;
  frame(res: Response): Promise<PageFrame>;
  /** A page of one message, its Back link to `back` (the dashboard's start by default). */
  message(res: Response, status: number, heading: string, text: string, back?: string): Promise<void>;
  /** The signed-in user; otherwise GET pages go to sign-in and anything else is refused. */
  signedIn(req: Request, res: Response, next: NextFunction): void;
  /** Changes are for admins; a viewer gets a plain 403 page. */
  adminOnly(req: Request, res: Response, next: NextFunction): void;
  userOf(res: Response): User;
  /** The admin service acting as the signed-in user, from the request's address (for the audit log). */
  as(req: Request, res: Response): AdminService;
  /** The signed-in user and the request's address, as the audit log records who made a change. */
  actorOf(req: Request, res: Response): Actor;
  /**
   * A form's answer (post/redirect/get): `flash` is kept for the session's next view of its page,
   * and the browser is sent there with 303, so that reloading shows that page again and sends nothing.
   */
  redirectWith(res: Response, flash: Flash, path?: string): Promise<void>;
  /** What the last form left for this page (nothing on a reload). */
  takeFlash(res: Response, page: string): Promise<Partial<Flash>>;
  /** The public base URL (GATEWAY_URL) every absolute link starts with; never built from the request. */
  publicUrl(): string;
  /** The agent's release folder the gateway serves at /downloads (download links, the latest version); null without one. */
  releases: ReleaseFolder | null;
}

export function pageContext(
  admin: AdminService,
  auth: DashboardAuth,
  publicUrl: () => string,
  releases: ReleaseFolder | null = null,
): PageContext {
  const frame = async (res: Response): Promise<PageFrame> => {
    const visit = visitOf(res);
    const user = visit.session?.user ?? null;
    const org = user ? await admin.findOrganisation(user.orgId) : null;
    return { viewer: user, organisation: org?.name ?? '', csrf: visit.csrf };
  };
  const message = async (res: Response, status: number, heading: string, text: string, back?: string): Promise<void> => {
    render(res, status, 'message', await frame(res), { title: heading, heading, text, ...(back ? { back } : {}) });
  };
  const userOf = (res: Response): User => visitOf(res).session!.user;
  const actorOf = (req: Request, res: Response): Actor => ({ name: userOf(res).email, address: req.ip ?? null });
  return {
    admin,
    auth,
    publicUrl,
    frame,
    message,
    signedIn(req, res, next) {
      if (visitOf(res).session) return next();
      if (req.method === 'GET') return res.redirect(303, '/dashboard/sign-in');
      void message(res, 401, 'Signed out', 'Your session has ended. Sign in again.');
    },
    adminOnly(_req, res, next) {
      if (visitOf(res).session?.user.role === 'admin') return next();
      void message(res, 403, 'Not allowed', 'Viewers can look at everything but change nothing. Ask an admin of your organisation.');
    },
    userOf,
    as: (req, res) => admin.by(actorOf(req, res)),
    actorOf,
    async redirectWith(res, flash, path = `/dashboard/${flash.page}`) {
      await auth.keepFlash(visitOf(res).sessionId!, flash);
      res.redirect(303, path);
    },
    async takeFlash(res, page) {
      const sessionId = visitOf(res).sessionId;
      return (sessionId ? await auth.takeFlash(sessionId, page) : null) ?? {};
    },
    releases,
  };
}
