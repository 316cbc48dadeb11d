import os from 'node:os';
import { AGENT_VERSION_LINE } from '../version.ts';
import type { Finding } from './findings.ts';

/** What `gp-agent diagnose` found, and how it is printed. */
export interface DiagnoseReport {
  findings: Finding[];
  /** True when any check failed: the command exits 1. */
  failed: boolean;
}

export function reportOf(findings: Finding[]): DiagnoseReport {
  return { findings, failed: findings.some((f) => f.status === 'fail') };
}

const MARK = { ok: 'ok  ', warn: 'WARN', fail: 'FAIL', skip: 'skip' } as const;

export function formatReport(report: DiagnoseReport): string[] {
  const width = Math.max(...report.findings.map((f) => f.check.length));
  const lines = [`gp-agent ${AGENT_VERSION_LINE} on ${os.hostname()} (${process.platform}), ${new Date().toISOString()}`, ''];
  for (const f of report.findings) {
    lines.push(`  ${MARK[f.status]}  ${f.check.padEnd(width)}  ${f.summary}`);
    const indent = ' '.repeat(width + 10);
    for (const detail of f.details ?? []) lines.push(`${indent}- ${detail}`);
    if (f.fix && (f.status === 'fail' || f.status === 'warn')) lines.push(`${indent}Fix: ${f.fix}`);
  }
  const failed = report.findings.filter((f) => f.status === 'fail').length;
  const warned = report.findings.filter((f) => f.status === 'warn').length;
  lines.push('');
  if (failed)
    lines.push(`${failed} ${failed === 1 ? 'check' : 'checks'} failed${warned ? `, ${warned} with warnings` : ''}: see "Fix" above.`);
  else lines.push(`All checks passed${warned ? `, ${warned} with warnings` : ''}.`);
  return lines;
}
