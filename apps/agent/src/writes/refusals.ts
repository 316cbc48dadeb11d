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
