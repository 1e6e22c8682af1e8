import { LineError, splitLines, type Line } from '../../src/transfer/lines';

async function collect(chunks: Array<string | Buffer>, maxLineBytes = 100): Promise<Line[]> {
  const lines: Line[] = [];
  async function* source() {
    for (const chunk of chunks) yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
  }
  for await (const line of splitLines(source(), maxLineBytes)) lines.push(line);
  return lines;
}

test.each<[string, Array<string | Buffer>, string[]]>([
  ['lines within one chunk', ['a\nb\n'], ['a', 'b']],
  ['a last line without a newline', ['a\nb'], ['a', 'b']],
  ['lines split across chunks', ['{"a"', ':1}\n{"b"', ':2}\n'], ['{"a":1}', '{"b":2}']],
  ['CRLF endings', ['a\r\nb\r\n'], ['a', 'b']],
  ['an empty line in the middle', ['a\n\nb\n'], ['a', '', 'b']],
  ['a character split between chunks', [Buffer.from('é😀\n').subarray(0, 3), Buffer.from('é😀\n').subarray(3)], ['é😀']],
  ['nothing', [], []],
])('%s', async (_name, chunks, texts) => {
  const lines = await collect(chunks);
  expect(lines).toEqual(texts.map((text, i) => ({ number: i + 1, text })));
});

test('a line past the limit fails with its number, also when it spans chunks', async () => {
  await expect(collect(['ok\n', 'x'.repeat(11), '\n'], 10)).rejects.toThrow(new LineError(2, 'is longer than 10 bytes'));
  await expect(collect(['ok\nxxxxxx', 'xxxxxx', 'xx\n'], 10)).rejects.toThrow('line 2: is longer than 10 bytes');
});

test('bytes that are not UTF-8 fail with the line number', async () => {
  await expect(collect(['ok\n', Buffer.from([0x7b, 0xff, 0x7d, 0x0a])])).rejects.toThrow('line 2: is not valid UTF-8');
});
