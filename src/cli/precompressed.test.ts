import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { pickPrecompressed, writePrecompressed } from './precompressed';

function builtDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'precompressed-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets', 'big.js'), 'export const x = 1;\n'.repeat(200));
  writeFileSync(join(dir, 'assets', 'table.json'), JSON.stringify(Array.from({ length: 500 }, (_, i) => `token ${i}`)));
  writeFileSync(join(dir, 'assets', 'tiny.js'), 'export {};');
  writeFileSync(join(dir, 'assets', 'logo.png'), Buffer.alloc(4096, 1));
  return dir;
}

describe('writePrecompressed', () => {
  it('writes .br and .gz copies that decompress to the file, for compressible files of 1 KB or more only', () => {
    const dir = builtDir();
    expect(writePrecompressed(dir)).toBe(2);
    for (const f of ['big.js', 'table.json']) {
      const p = join(dir, 'assets', f);
      const original = readFileSync(p);
      expect(brotliDecompressSync(readFileSync(p + '.br')).equals(original)).toBe(true);
      expect(gunzipSync(readFileSync(p + '.gz')).equals(original)).toBe(true);
    }
    expect(existsSync(join(dir, 'assets', 'tiny.js.gz'))).toBe(false);
    expect(existsSync(join(dir, 'assets', 'logo.png.gz'))).toBe(false);
  });
});

describe('pickPrecompressed', () => {
  const dir = builtDir();
  writePrecompressed(dir);
  const big = join(dir, 'assets', 'big.js');

  it('prefers brotli, falls back to gzip, and honours q=0', () => {
    expect(pickPrecompressed(big, 'gzip, deflate, br, zstd')?.encoding).toBe('br');
    expect(pickPrecompressed(big, 'gzip, deflate')?.encoding).toBe('gzip');
    expect(pickPrecompressed(big, 'br;q=0, gzip;q=0.5')?.encoding).toBe('gzip');
    expect(pickPrecompressed(big, ['gzip', 'br'])?.encoding).toBe('br');
    expect(pickPrecompressed(big, 'BR')?.encoding).toBe('br');
  });

  it('gives nothing when the browser takes neither, or no copy was written', () => {
    expect(pickPrecompressed(big, undefined)).toBeNull();
    expect(pickPrecompressed(big, 'identity')).toBeNull();
    expect(pickPrecompressed(big, 'brotli-x, gzip2')).toBeNull();
    expect(pickPrecompressed(join(dir, 'assets', 'tiny.js'), 'br, gzip')).toBeNull();
  });

  it('names the copy and its size', () => {
    const copy = pickPrecompressed(big, 'br')!;
    expect(copy.path).toBe(big + '.br');
    expect(copy.size).toBe(readFileSync(big + '.br').length);
  });
});
