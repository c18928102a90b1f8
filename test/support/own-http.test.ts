import http from 'node:http';
import nock from 'nock';
import { closeParsersMade } from './own-http';

afterEach(() => nock.cleanAll());

it('closes the HTTP parsers nock made for a request it answered, which Node’s binding would keep for good', async () => {
  nock('http://own-http.example.test').get('/').reply(204);
  const status = await new Promise<number | undefined>((resolve, reject) =>
    http
      .get('http://own-http.example.test/', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      })
      .on('error', reject),
  );
  expect(status).toBe(204);
  // A request and a response parser: nock's interceptor still makes them through _http_common, where they are seen.
  expect(closeParsersMade()).toBe(2);
  expect(closeParsersMade()).toBe(0);
});
