import fs from 'node:fs';
import readline from 'node:readline';
import { Writable } from 'node:stream';
import { parseConnectionString } from '../../db/mssqlExecutor.ts';

/**
 * The SQL login's password for `gp-agent install`, kept off every command line and out of shell
 * history: the connection string names the login without it, and install asks for it (hidden
 * input) or reads it from a file (`--mssql-password-file`, for unattended installs). Only then is
 * it put into the connection string written to the private configuration file.
 */

/** True when the connection names a SQL login but gives no password (Windows logins have none). */
export function lacksPassword(connection: string): boolean {
  const config = parseConnectionString(connection);
  return Boolean(config.user) && !config.password;
}

/** The connection with the password added, in braces (a `}` doubled) so that `;`, `=` or quotes in it survive. */
export function withPassword(connection: string, password: string): string {
  return `${connection.replace(/[;\s]*$/, '')};Password={${password.replace(/\}/g, '}}')}}`;
}

/** The first line of a file: a password file holds nothing else. */
export function passwordFromFile(file: string): string {
  const password = fs
    .readFileSync(file, 'utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)[0]!;
  if (!password) throw new Error(`${file} is empty: it should hold the SQL login's password on its first line`);
  return password;
}

/** Asks on the terminal without echoing what is typed. */
export async function promptPassword(question: string): Promise<string> {
  if (!process.stdin.isTTY)
    throw new Error(
      'the SQL login has no password in --mssql: pass --mssql-password-file <file>, or run install in a terminal to be asked',
    );
  process.stderr.write(question);
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const rl = readline.createInterface({ input: process.stdin, output: silent, terminal: true });
  try {
    return await new Promise<string>((resolve) => rl.question('', resolve));
  } finally {
    rl.close();
    process.stderr.write('\n');
  }
}
