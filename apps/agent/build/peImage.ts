/**
 * The little of the Windows PE format the build and its tests need, read from the bytes: whether a
 * file is a 64-bit Windows console program, its Authenticode signature (which injecting the blob
 * would leave invalid, so the build removes it first, as `signtool remove /s` would), and the size
 * of a named RT_RCDATA resource (where Node looks for the application blob on Windows).
 */

const IMAGE_FILE_MACHINE_AMD64 = 0x8664;
const PE32_PLUS = 0x20b;
const DIRECTORY_RESOURCE = 2;
const DIRECTORY_SECURITY = 4;
const RT_RCDATA = 10;

export interface PeFacts {
  machine: 'x64' | string;
  /** 2: GUI, 3: console. */
  subsystem: number;
  sections: string[];
  /** Authenticode signature, as the security directory gives it (a file offset, not an address). */
  signature: { offset: number; size: number } | null;
}

interface Section {
  name: string;
  virtualAddress: number;
  virtualSize: number;
  rawSize: number;
  rawOffset: number;
}

interface Headers {
  facts: PeFacts;
  /** Where the security directory's entry is, to clear it. */
  securityEntry: number;
  resource: { rva: number; size: number };
  sections: Section[];
}

function headers(file: Buffer): Headers {
  if (file.length < 0x40 || file.toString('latin1', 0, 2) !== 'MZ') throw new Error('not a Windows executable (no MZ header)');
  const pe = file.readUInt32LE(0x3c);
  if (file.toString('latin1', pe, pe + 4) !== 'PE\0\0') throw new Error('not a Windows executable (no PE signature)');
  const machine = file.readUInt16LE(pe + 4);
  const sectionCount = file.readUInt16LE(pe + 6);
  const optionalSize = file.readUInt16LE(pe + 20);
  const optional = pe + 24;
  if (file.readUInt16LE(optional) !== PE32_PLUS) throw new Error('not a 64-bit (PE32+) executable');
  const directory = (i: number) => optional + 112 + 8 * i;
  const sections: Section[] = [];
  for (let i = 0, at = optional + optionalSize; i < sectionCount; i++, at += 40) {
    sections.push({
      name: file.toString('latin1', at, at + 8).replace(/\0+$/, ''),
      virtualSize: file.readUInt32LE(at + 8),
      virtualAddress: file.readUInt32LE(at + 12),
      rawSize: file.readUInt32LE(at + 16),
      rawOffset: file.readUInt32LE(at + 20),
    });
  }
  const securityEntry = directory(DIRECTORY_SECURITY);
  const signatureOffset = file.readUInt32LE(securityEntry);
  const signatureSize = file.readUInt32LE(securityEntry + 4);
  return {
    facts: {
      machine: machine === IMAGE_FILE_MACHINE_AMD64 ? 'x64' : `0x${machine.toString(16)}`,
      subsystem: file.readUInt16LE(optional + 68),
      sections: sections.map((s) => s.name),
      signature: signatureOffset && signatureSize ? { offset: signatureOffset, size: signatureSize } : null,
    },
    securityEntry,
    resource: { rva: file.readUInt32LE(directory(DIRECTORY_RESOURCE)), size: file.readUInt32LE(directory(DIRECTORY_RESOURCE) + 4) },
    sections,
  };
}

export function peFacts(file: Buffer): PeFacts {
  return headers(file).facts;
}

/**
 * The file without its Authenticode signature: the signature sits at the end of the file, outside
 * every section, so it is cut off and its directory entry cleared. Unchanged if it has none.
 */
export function withoutSignature(file: Buffer): Buffer {
  const { facts, securityEntry } = headers(file);
  if (!facts.signature) return file;
  const { offset, size } = facts.signature;
  if (offset + size < file.length - 8) throw new Error('the signature is not at the end of the file; refusing to cut it');
  const out = Buffer.from(file.subarray(0, offset));
  out.writeUInt32LE(0, securityEntry);
  out.writeUInt32LE(0, securityEntry + 4);
  return out;
}

/** The size in bytes of the RT_RCDATA resource `name` (any language), or null when there is none. */
export function rcdataSize(file: Buffer, name: string): number | null {
  const { resource, sections } = headers(file);
  if (!resource.rva) return null;
  const offsetOf = (rva: number) => {
    const s = sections.find((s) => rva >= s.virtualAddress && rva < s.virtualAddress + Math.max(s.virtualSize, s.rawSize));
    if (!s) throw new Error(`address 0x${rva.toString(16)} is in no section`);
    return rva - s.virtualAddress + s.rawOffset;
  };
  const root = offsetOf(resource.rva);
  /** The entries of the directory at `at` (relative to the root): [name or id, target, is a directory]. */
  const entries = (at: number) => {
    const dir = root + at;
    const count = file.readUInt16LE(dir + 12) + file.readUInt16LE(dir + 14);
    return Array.from({ length: count }, (_, i) => {
      const nameField = file.readUInt32LE(dir + 16 + 8 * i);
      const target = file.readUInt32LE(dir + 16 + 8 * i + 4);
      let key: string | number = nameField;
      if (nameField & 0x80000000) {
        const str = root + (nameField & 0x7fffffff);
        key = file.toString('utf16le', str + 2, str + 2 + 2 * file.readUInt16LE(str));
      }
      return { key, target: target & 0x7fffffff, directory: (target & 0x80000000) !== 0 };
    });
  };
  const type = entries(0).find((e) => e.key === RT_RCDATA && e.directory);
  const named = type && entries(type.target).find((e) => e.key === name && e.directory);
  const language = named && entries(named.target).find((e) => !e.directory);
  return language ? file.readUInt32LE(root + language.target + 4) : null;
}
