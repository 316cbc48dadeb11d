/** A name quoted as a T-SQL identifier: in brackets, a `]` inside doubled. */
export const tsqlName = (name: string) => `[${name.replaceAll(']', ']]')}]`;
