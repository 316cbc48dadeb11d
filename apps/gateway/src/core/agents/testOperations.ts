import type { Operation } from '@gp-gateway/protocol';

/** A customer create for the agent-routing tests to send; `validateOnly` makes it a dry run. */
export const customerWrite = (validateOnly = false): Operation => ({
  kind: 'write',
  object: 'customers',
  company: 'TWO',
  operationId: 'op_0123456789abcdef',
  body: { id: 'A', name: 'A' },
  validateOnly,
});
