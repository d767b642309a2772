// Drops files onto the page the way a user's drag does: a DataTransfer with real File objects.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Page } from '@playwright/test';

export interface DropFile {
  name: string;
  /** base64 of the bytes, so binary and invalid UTF-8 files survive the trip. */
  base64: string;
}

export function fromDisk(...paths: string[]): DropFile[] {
  return paths.map((p) => ({ name: basename(p), base64: readFileSync(p).toString('base64') }));
}

export function fromText(name: string, text: string): DropFile {
  return { name, base64: Buffer.from(text, 'utf8').toString('base64') };
}

export async function dropFiles(page: Page, files: DropFile[]): Promise<void> {
  // `goto` returns at the load event, which can come before the app's first render: drop on the app, not before it.
  await page.locator('main').first().waitFor();
  await page.evaluate((list) => {
    const dt = new DataTransfer();
    for (const f of list) {
      const bin = atob(f.base64);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      dt.items.add(new File([bytes], f.name));
    }
    const target = document.querySelector('main') ?? document.body;
    for (const type of ['dragenter', 'dragover', 'drop']) {
      target.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }
  }, files);
}
