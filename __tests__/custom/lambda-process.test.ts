import os from 'node:os';
import { LAMBDA_NICENESS, LambdaProcess } from '../../src/custom/lambda-process.js';

describe('LambdaProcess', () => {
  it('runs the script host at a lower CPU priority than the service, so a busy script cannot starve it', async () => {
    const child = LambdaProcess.spawn("process.on('message', () => undefined);", { memoryMb: 64, maxResidentMb: 256 });
    try {
      expect(child.pid).toEqual(expect.any(Number));
      // Niceness 10, or the service's own where that is lower still (a process cannot raise its priority back).
      expect(os.getPriority(child.pid!)).toBe(Math.max(LAMBDA_NICENESS, os.getPriority(process.pid)));
      expect(os.getPriority(child.pid!)).toBeGreaterThan(0);
    } finally {
      await child.kill();
    }
  });
});
