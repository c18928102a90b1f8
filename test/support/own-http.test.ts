import http from 'node:http';
import nock from 'nock';
import { useNock } from '../helpers';

/*
 * What test/support/own-http.ts leaves behind a file that made requests through nock. Its `afterAll` runs before
 * this file's (a setup file's hooks are declared first), so this file's own `afterAll` sees what the worker keeps.
 */

useNock();

type Parser = { getCurrentBuffer: () => Buffer | undefined };
const parsers: Parser[] = [];

const get = (url: string) =>
  new Promise<{ body: string; socket: unknown }>((resolve, reject) => {
    let socket: unknown;
    const req = http.get(url, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ body, socket }));
    });
    req.on('socket', (s) => (socket = s));
    req.on('error', reject);
  });

it('nock answers a request through HTTP parsers of its own, open while the file runs', async () => {
  nock('http://own-http.test').get('/x').reply(200, 'answered');
  const { body, socket } = await get('http://own-http.test/x');
  expect(body).toBe('answered');
  const { requestParser, responseParser } = socket as { requestParser: Parser; responseParser: Parser };
  parsers.push(requestParser, responseParser);
  // Node's parsers: an interceptor that parses with one of its own needs nothing closed (own-http.ts says when).
  expect(parsers.map((p) => typeof p?.getCurrentBuffer)).toEqual(['function', 'function']);
  expect(parsers.map((p) => p.getCurrentBuffer())).toEqual([expect.any(Buffer), expect.any(Buffer)]);
});

afterAll(() => {
  // A parser still open holds its socket, and through it every module of this file, for the worker's life.
  expect(parsers.map((p) => p.getCurrentBuffer())).toEqual([undefined, undefined]);
});
