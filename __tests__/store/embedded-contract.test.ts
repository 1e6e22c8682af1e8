import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openEmbeddedStore } from '../../src/store/embedded/index.js';
import { describeStoreContract } from './contract.js';

const folders: string[] = [];
let current = '';

afterAll(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

describeStoreContract(
  'embedded',
  async () => {
    current = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-contract-'));
    folders.push(current);
    return openEmbeddedStore(current);
  },
  async () => openEmbeddedStore(current),
);
