// Worker threads do not inherit the parent's TypeScript loader on Node 20: register tsx in this
// thread, then load the real entry.
import { register } from 'tsx/esm/api';

register();
await import('./sqliteWorker.ts');
