import { AgentError } from '../service/agentError.ts';

/** One reason a write is refused: the body field it is about (`lines.2.itemId`) and what is wrong. */
export interface Issue {
  path: string;
  message: string;
}

/** A write refused before anything was written: a 400 whose `details.issues` names every problem found. */
export class WriteRefusal extends AgentError {
  constructor(issues: Issue[], message = 'the record cannot be written: see details.issues') {
    super('VALIDATION_ERROR', message, null, { issues });
  }
}

/** A create whose id or number GP already holds: 409, never an update. */
export function alreadyExists(object: string, message: string): AgentError {
  return new AgentError('ALREADY_EXISTS', message, null, { object });
}
