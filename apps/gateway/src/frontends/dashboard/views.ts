import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Eta } from 'eta';
import type { Response } from 'express';
import type { User } from '../../infrastructure/store/store.ts';

const VIEWS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'views');

/** Eta escapes every `<%= %>` (autoEscape); templates are compiled once and cached. */
const eta = new Eta({ views: VIEWS, cache: true, autoEscape: true });

/** What every page's layout shows: who is signed in, where, and their form token. */
export interface PageFrame {
  viewer: User | null;
  organisation: string;
  csrf: string;
}

/** `2026-03-01T14:05:09.123Z` → `2026-03-01 14:05 UTC`; null → `never`. */
export function time(iso: string | null): string {
  return iso === null ? 'never' : `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

export function render(res: Response, status: number, view: string, frame: PageFrame, data: Record<string, unknown>): void {
  const html = eta.render(view, { ...frame, time, ...data });
  res.status(status).type('html').send(html);
}
