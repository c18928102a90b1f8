/**
 * The AI receptionist (n8n-nodes-clinic-cashier/examples/ai-receptionist.json) in a real n8n, driven by the official
 * MCP TypeScript SDK's client as any assistant would drive it, no model needed: it lists the tools and their input
 * schemas, books, sends the same call again (one booking at the clinic), finds the booking by date range, cancels it,
 * hears plain words for a taken slot, a past time and a missing name, and a wrong credential's message; the
 * endpoint refuses a client without the bearer token.
 *
 * The lane's regular mode calls `checkMcp` with what it has (n8n's address, its REST session, the sandbox's
 * connection, its own way of recording a check): `npm run test:n8n -- --regular` runs it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { call, type Json } from '../../harness/call';
import { explain } from '../../lib/errors';

const EXAMPLE = join(__dirname, '..', '..', 'n8n-nodes-clinic-cashier', 'examples', 'ai-receptionist.json');

export interface McpLane {
  /** Where MCP clients reach n8n (its webhook address, no trailing slash): the endpoint is `<url>/mcp/<path>`. */
  n8nUrl: string;
  /** n8n's REST interface as the signed-in owner: the `data` of a 2xx answer, else it throws. */
  rest: (method: string, path: string, body?: unknown) => Promise<Json>;
  /** The package's node types as n8n names them: `n8n-nodes-clinic-cashier.` for a package install. */
  typePrefix: string;
  /** The Clinic & Cashier API credential's data for the sandbox (clinic_api_token, clinic_base_url, …). */
  connection: Record<string, string>;
  /** Runs one named check and records it; a failure must not stop the checks after it. */
  check: (name: string, fn: () => Promise<void>) => Promise<void>;
  /** What the checks' names begin with: `mcp` in regular mode (the default), `queue mcp` in queue mode. */
  label?: string;
}

export const MCP_CHECKS = [
  'mcp: the receptionist example activates; a client lists its four tools with their input schemas',
  'mcp: the endpoint refuses a client without the bearer token',
  'mcp: Book Appointment books; the same call again answers the same appointment, one at the clinic',
  'mcp: Find Appointment finds it by date range',
  'mcp: Cancel Appointment cancels the appointment named; asked again, the visit is booked anew',
  'mcp: a past time, a missing name and a taken slot answer words the assistant can relay',
  'mcp: a wrong clinic token answers the app’s message',
] as const;

/** The checks' names under a label of the mode they run in. */
export const mcpChecks = (label = 'mcp'): string[] => MCP_CHECKS.map((c) => c.replace(/^mcp:/, `${label}:`));

interface Example {
  nodes: Array<Record<string, Json>>;
  connections: Json;
  settings: Json;
}

const TOOLS = ['Find_Patient', 'Find_Appointment', 'Book_Appointment', 'Cancel_Appointment'];

/** A day `days` ahead at `hour`, Riyadh time, and the next day's date. */
const dayAhead = (days: number, hour: number) => {
  const date = new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  const next = new Date(Date.parse(date) + 86_400_000).toISOString().slice(0, 10);
  return { at: `${date}T${String(hour).padStart(2, '0')}:00:00+03:00`, date, next };
};

const expectThat = (ok: boolean, what: string) => {
  if (!ok) throw new Error(what);
};

type ToolAnswer = { isError: boolean; text: string };

/** One connected MCP client of the endpoint. */
const connect = async (url: string, token?: string) => {
  const client = new Client({ name: 'n8n-lane-mcp-check', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : {},
  });
  await client.connect(transport);
  const use = async (name: string, args: Record<string, unknown>): Promise<ToolAnswer> => {
    const answer = (await client.callTool({ name, arguments: args })) as {
      isError?: boolean;
      content: Array<{ type: string; text?: string }>;
    };
    return { isError: !!answer.isError, text: answer.content.map((c) => c.text ?? '').join('\n') };
  };
  /** A tool's items; throws with the tool's words when it answered an error. */
  const items = async (name: string, args: Record<string, unknown>): Promise<Json[]> => {
    const answer = await use(name, args);
    if (answer.isError) throw new Error(`${name} answered an error: ${answer.text.slice(0, 300)}`);
    return JSON.parse(answer.text) as Json[];
  };
  return { client, use, items, close: () => client.close() };
};

/** The example as n8n stores it, bound to the given credentials, on its own path. */
const exampleWith = (typePrefix: string, path: string, credentials: Record<string, Json>): Example => {
  const example = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as Example;
  for (const node of example.nodes) {
    node.type = String(node.type).replace(/^n8n-nodes-clinic-cashier\./, typePrefix);
    node.credentials = Object.fromEntries(
      Object.keys(node.credentials ?? {}).map((type) => [type, credentials[type]]),
    );
    if (node.webhookId) {
      node.webhookId = randomUUID();
      node.parameters.path = path;
    }
  }
  return example;
};

export const checkMcp = async (lane: McpLane): Promise<void> => {
  const named = mcpChecks(lane.label);
  const suffix = randomBytes(4).toString('hex');
  const token = `lane-${randomBytes(16).toString('hex')}`;
  const credential = async (name: string, type: string, data: Json) => {
    const made = await lane.rest('POST', '/credentials', { name: `${name} ${suffix}`, type, data });
    return { id: made.id as string, name: made.name as string };
  };
  const activate = async (path: string, clinic: { id: string; name: string }, bearer: Json) => {
    const example = exampleWith(lane.typePrefix, path, { clinicCashierApi: clinic, httpBearerAuth: bearer });
    const flow = await lane.rest('POST', '/workflows', { name: `Lane: ${path}`, active: false, ...example });
    await lane.rest('POST', `/workflows/${flow.id}/activate`, { versionId: flow.versionId });
    // n8n 2.41 activates in the background after answering; its publication status says when and how it ended.
    for (let look = 0; ; look++) {
      const p = (await lane.rest('GET', `/workflows/${flow.id}/publication-status`)) as Json;
      if (p.status === 'published') break;
      if (p.status !== 'in_progress' && p.status !== 'not_published') {
        throw new Error(`${path}: activation ended ${JSON.stringify(p)}`);
      }
      if (look >= 120) throw new Error(`${path}: not published after 60 s (${JSON.stringify(p)})`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return `${lane.n8nUrl}/mcp/${path}`;
  };

  let url = '';
  let wrongUrl = '';
  let assistant: Awaited<ReturnType<typeof connect>> | undefined;
  await lane.check(named[0]!, async () => {
    const bearer = await credential('Assistant token', 'httpBearerAuth', { token });
    const clinic = await credential('Clinic & Cashier', 'clinicCashierApi', lane.connection);
    const wrong = await credential('Revoked', 'clinicCashierApi', {
      ...lane.connection,
      clinic_api_token: `${lane.connection.clinic_api_token}-revoked`,
    });
    url = await activate(`receptionist-${suffix}`, clinic, bearer);
    wrongUrl = await activate(`receptionist-revoked-${suffix}`, wrong, bearer);
    assistant = await connect(url, token);
    const { tools } = await assistant.client.listTools();
    expectThat(
      JSON.stringify(tools.map((t) => t.name).sort()) === JSON.stringify([...TOOLS].sort()),
      `tools ${tools.map((t) => t.name).join(', ')}`,
    );
    const schema = (name: string) => tools.find((t) => t.name === name)!.inputSchema;
    const book = schema('Book_Appointment');
    expectThat(
      JSON.stringify(Object.keys(book.properties ?? {}).sort()) ===
        JSON.stringify(['patient_name', 'patient_phone', 'starts_at']),
      `Book_Appointment's inputs ${JSON.stringify(book.properties)}`,
    );
    for (const t of tools) {
      for (const [key, p] of Object.entries(t.inputSchema.properties ?? {})) {
        const words = (p as { description?: string }).description ?? '';
        expectThat(
          /Ask|Never guess|last day/.test(words),
          `${t.name}.${key} says nothing of what to ask: ${words}`,
        );
      }
      expectThat((t.description ?? '').length > 80, `${t.name} has no description`);
    }
    expectThat(
      JSON.stringify(schema('Cancel_Appointment').required) === '["appointment_id"]',
      'Cancel_Appointment does not require the appointment',
    );
  });

  await lane.check(named[1]!, async () => {
    const refused = await connect(url).then(
      async (c) => {
        await c.close();
        return false;
      },
      (err: unknown) => /401|403|authoriz/i.test(String(err)),
    );
    expectThat(refused, 'a client without the token connected');
    const wrongToken = await connect(url, `${token}-wrong`).then(
      () => false,
      () => true,
    );
    expectThat(wrongToken, 'a client with another token connected');
  });

  const phone = `05${String(Date.now()).slice(-8)}`;
  // Days no other check of the lane books (its deliveries take days 30 to about 40 ahead, scripts/n8n-lane/deliveries.ts).
  const slot = dayAhead(90, 10);
  const visit = { starts_at: slot.at, patient_phone: phone, patient_name: 'Lane Assistant Patient' };
  const at = (path: string) =>
    call(`${lane.connection.clinic_base_url}${path}`, { token: lane.connection.clinic_api_token });
  let booked: Json;
  await lane.check(named[2]!, async () => {
    [booked] = await assistant!.items('Book_Appointment', visit);
    expectThat(booked?.status === 'booked' && booked.duplicate === false, `booked ${JSON.stringify(booked)}`);
    const [again] = await assistant!.items('Book_Appointment', visit);
    expectThat(again.id === booked.id && again.duplicate === true, `again ${JSON.stringify(again)}`);
    // Another connection (a reconnection, a later chat) asking for the same visit meets it too.
    const later = await connect(url, token);
    const [third] = await later.items('Book_Appointment', visit);
    await later.close();
    expectThat(third.id === booked.id, `a new session booked ${third.id}`);
    const held = await at(`/appointments?patient_id=${booked.patient_id}&from=${slot.date}&to=${slot.next}`);
    expectThat(held.body.data.length === 1, `the clinic holds ${held.body.data.length} appointments`);
  });

  await lane.check(named[3]!, async () => {
    const [patient] = await assistant!.items('Find_Patient', { phone });
    expectThat(
      patient?.id === booked.patient_id && !('birth_date' in patient),
      `patient ${JSON.stringify(patient)}`,
    );
    const found = await assistant!.items('Find_Appointment', {
      patient_id: patient.id,
      from: slot.date,
      to: slot.next,
    });
    expectThat(
      found.length === 1 && found[0].id === booked.id,
      `found ${JSON.stringify(found).slice(0, 300)}`,
    );
  });

  await lane.check(named[4]!, async () => {
    const [cancelled] = await assistant!.items('Cancel_Appointment', { appointment_id: booked.id });
    expectThat(
      cancelled?.id === booked.id && cancelled.status === 'cancelled',
      `${JSON.stringify(cancelled)}`,
    );
    const held = await at(`/appointments/${booked.id}`);
    expectThat(held.body.data.status === 'cancelled', `the clinic holds it ${held.body.data.status}`);
    const [anew] = await assistant!.items('Book_Appointment', visit);
    expectThat(anew.id !== booked.id && anew.status === 'booked', `asked again: ${JSON.stringify(anew)}`);
    await assistant!.items('Cancel_Appointment', { appointment_id: anew.id });
  });

  await lane.check(named[5]!, async () => {
    const past = await assistant!.use('Book_Appointment', {
      ...visit,
      starts_at: '2020-01-05T10:00:00+03:00',
    });
    expectThat(past.isError && /Start Time/.test(past.text) && /past/.test(past.text), `past: ${past.text}`);
    const nameless = await assistant!.use('Book_Appointment', { ...visit, patient_name: '' });
    expectThat(nameless.isError && /Patient Name/.test(nameless.text), `nameless: ${nameless.text}`);
    const full = dayAhead(91, 11);
    for (let n = 0; n < 12; n += 1) {
      const answer = await assistant!.use('Book_Appointment', {
        starts_at: full.at,
        patient_phone: `05${String(Date.now() + n).slice(-8)}`,
        patient_name: `Lane Patient ${n}`,
      });
      if (answer.isError) {
        expectThat(
          /That time is already taken: pick another time/.test(answer.text),
          `taken: ${answer.text}`,
        );
        return;
      }
    }
    throw new Error('twelve people booked one slot');
  });

  await lane.check(named[6]!, async () => {
    const revoked = await connect(wrongUrl, token);
    const answer = await revoked.use('Find_Patient', { phone });
    await revoked.close();
    const expected = explain('token_invalid', 'clinic', 401, undefined).text.en;
    expectThat(answer.isError && answer.text.includes(expected), `answered ${answer.text.slice(0, 300)}`);
  });

  await assistant?.close();
};
