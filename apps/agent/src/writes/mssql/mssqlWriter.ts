import { AgentError } from '../../service/agentError.ts';
import type { Writer } from '../writeService.ts';

/** SQL Server writes through eConnect's procedures (econnect.ts). */
export class MssqlWriter implements Writer {
  constructor(_connection: string) {}

  write(): never {
    throw new AgentError('INTERNAL_ERROR', 'writes on SQL Server are not built yet');
  }

  outcome(): never {
    throw new AgentError('INTERNAL_ERROR', 'writes on SQL Server are not built yet');
  }

  close(): void {}
}
