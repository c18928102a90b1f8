/**
 * The local tools a newcomer runs first, as a terminal runs them: `npm run sandbox` stops on SIGTERM (sent to npm,
 * as a process manager or an IDE sends it), `npm run sample` resolves what Zapier would resolve and takes a
 * trigger's inputs, an instant trigger run outside Zapier points to `npm run sample`, and `--help` on each tool says
 * what it does and starts nothing.
 */
import { spawn, execFile } from 'node:child_process';
import { createServer, connect } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createAppTester } from 'zapier-platform-core';
import App from '../../index';

const root = join(__dirname, '..', '..');
const run = promisify(execFile);

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

// Each test waits for child processes (npm, tsx compiling the app, a sandbox) to end or to say they are ready, not
// for a time: on a loaded two-core machine one `npm run sample` took over 30 s, jest's limit per test here
// (jest.config.js), so this file's limit only guards against a hang.
jest.setTimeout(300_000);

describe('npm run sandbox', () => {
  it('stops, port and all, when npm itself gets SIGTERM', async () => {
    const port = await freePort();
    const npm = spawn('npm', ['run', '--silent', 'sandbox', '--', '--port', String(port), '--quiet'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'ignore'],
      // A group of its own, so a failing test can stop the sandbox npm started too, whose output pipe would keep
      // this jest worker alive.
      detached: true,
    });
    const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
    try {
      // The sandbox's own line that it listens, however long a loaded machine takes to get there.
      await new Promise<void>((resolve) => {
        let out = '';
        npm.stdout!.on('data', (chunk: Buffer) => {
          out += String(chunk);
          if (out.includes(`127.0.0.1:${port}`)) resolve();
        });
      });
      expect(await listening(port)).toBe(true);
      npm.kill('SIGTERM');
      // npm ends once the sandbox it ran has ended.
      await exited;
      expect(await listening(port)).toBe(false);
    } finally {
      try {
        process.kill(-npm.pid!, 'SIGKILL');
      } catch {
        // the group has ended, as it should have
      }
      npm.stdout!.destroy();
    }
  });
});

describe('npm run sample', () => {
  const sample = async (...args: string[]) => {
    const { stdout } = await run('npm', ['run', '--silent', 'sample', '--', ...args], { cwd: root });
    return JSON.parse(stdout) as Array<Record<string, unknown>>;
  };

  it('shows Appointment Starting Soon with the patient resolved, not the pointer Zapier resolves', async () => {
    const items = await sample('appointment_starting_soon', '--input', '{"minutes_before":"1440"}');
    expect(items.length).toBeGreaterThan(0);
    expect(JSON.stringify(items)).not.toContain('hydrate|||');
    for (const item of items) {
      expect(item.patient).toEqual(
        expect.objectContaining({ name_en: expect.any(String), file_no: expect.any(String) }),
      );
    }
  });

  it("takes a trigger's inputs: New Customer with a consent channel shows only customers who consented", async () => {
    const everyone = await sample('customer_created');
    const consented = await sample('customer_created', '--input', '{"consent_channel":"sms"}');
    expect(everyone.some((c) => c.marketing_consent === false)).toBe(true);
    expect(consented.length).toBeGreaterThan(0);
    expect(consented.every((c) => c.marketing_consent === true)).toBe(true);
  });

  it('refuses input that is not a JSON object, saying how to give it', async () => {
    await expect(
      run('npm', ['run', '--silent', 'sample', '--', 'customer_created', '--input', 'sms'], { cwd: root }),
    ).rejects.toMatchObject({ stderr: expect.stringContaining('--input is not JSON') });
  });
});

describe('an instant trigger run outside Zapier (zapier-platform invoke)', () => {
  it('says there is no delivery and names npm run sample, rather than refusing a delivery', async () => {
    const trigger = App.triggers!.appointment_created!.operation as { perform: unknown };
    const perform = trigger.perform as never;
    await expect(createAppTester(App)(perform, { authData: {}, inputData: {} } as never)).rejects.toThrow(
      'there is no delivery here. To see its items locally, run: npm run sample -- appointment_created',
    );
  });
});

describe('--help on each tool: what it does, and nothing started', () => {
  let before = '';
  beforeAll(async () => {
    before = (await run('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root })).stdout;
  });
  const npmRun = (...args: string[]) => run('npm', ['run', '--silent', ...args], { cwd: root });

  it('npm start -- --help explains instead of running the story', async () => {
    const { stdout } = await npmRun('start', '--', '--help');
    expect(stdout).toMatch(/^npm start: the local sandbox/);
    expect(stdout).toContain('SANDBOX_PORT');
    expect(stdout).not.toContain('Sandbox on');
  });

  it('npm start refuses an argument it does not take, with the help', async () => {
    await expect(npmRun('start', '--', '--port', '0')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('npm start takes no arguments (--port 0)'),
    });
  });

  it('npm run sample -- --help gives the usage, examples and the trigger keys', async () => {
    const { stdout } = await npmRun('sample', '--', '--help');
    expect(stdout).toMatch(/^Usage: npm run sample -- <trigger key>/);
    expect(stdout).toContain('appointment_starting_soon');
    expect(stdout).toContain('Trigger keys:\n  appointment_created');
  });

  it('npm run sample with an unknown option names it and says how to call it, without a stack trace', async () => {
    const failed = (await npmRun('sample', '--', 'customer_created', '--bogus').catch((e: unknown) => e)) as {
      stderr: string;
    };
    expect(failed.stderr).toContain("Unknown option '--bogus'");
    expect(failed.stderr).toContain('Usage: npm run sample -- <trigger key>');
    expect(failed.stderr).not.toMatch(/\n\s+at /);
  });

  it('npm run record -- --help says what it records and how the suites record', async () => {
    const { stdout } = await npmRun('record', '--', '--help');
    expect(stdout).toMatch(/^npm run record: records one genuine signed delivery per event/);
    expect(stdout).toContain('RECORD=1 npx jest <test file>');
  });

  // The scripts themselves, not through npm: `npm run bench` builds before its script sees --help.
  it.each([
    ['docs', ['tsx', 'scripts/generate-docs.ts']],
    ['contract:update', ['tsx', 'scripts/update-contract-snapshot.ts']],
    ['check:build', ['node', 'scripts/check-build.js']],
    ['build:production', ['node', 'scripts/production-build.js']],
    ['bench', ['tsx', 'bench/index.ts']],
  ])('npm run %s -- --help says what it does and writes nothing', async (name, [tool, script]) => {
    const command = tool === 'node' ? process.execPath : join(root, 'node_modules', '.bin', tool!);
    const { stdout } = await run(command, [script!, '--help'], { cwd: root });
    expect(stdout.startsWith(`npm run ${name}`)).toBe(true);
    const changed = await run('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root });
    expect(changed.stdout).toBe(before);
  });

  it('npm test -- --help names the stages and how to run one', async () => {
    const { stdout } = await run(process.execPath, [join(root, 'scripts', 'test.js'), '--help']);
    expect(stdout).toMatch(/^npm test: build, then type-check, lint and validate/);
    expect(stdout).toContain('npx jest <file>');
  });
});
