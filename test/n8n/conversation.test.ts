/*
 * Book Appointment called by an AI assistant as a tool (n8n's MCP Server Trigger, or an n8n AI Agent on the Chat
 * Trigger): the booking reference derived from the workflow, the node and the booking's canonical inputs, so a call
 * repeated in one conversation, or after a reconnection in a new MCP session, books once; another person books
 * anew; the same booking asked again after its cancellation is booked again; and what a tool answers of a patient.
 */
import { ClinicCashier } from '../../n8n-nodes-clinic-cashier/src/nodes/ClinicCashier/ClinicCashier.node';
import { MCP_SESSION_HEADER } from '../../n8n-nodes-clinic-cashier/src/event-scope';
import { data, reply } from '../fixtures';
import { clockAtRecording } from '../support/recorder';
import { clinicApi, clinicPath, recordedPatientRead, useNock } from '../helpers';
import { BOOKING_INPUT, hookContext } from './context';

useNock();
beforeEach(() => clockAtRecording());
afterEach(() => jest.useRealTimers());

const node = new ClinicCashier();
const booking = { resource: 'appointment', operation: 'book', ...BOOKING_INPUT, external_ref: '' };

/** What n8n's MCP Server Trigger (2.1+) hands its tools as `$json`: the request's body and headers. */
const mcpCall = (session: string) => ({
  body: { method: 'tools/call' },
  headers: { [MCP_SESSION_HEADER]: session },
});

type Caller = Record<string, unknown> | undefined;

/** Runs Book once per caller (the `$json` its tool call sees) and gives the reference each posted. */
const refsOf = async (calls: Array<{ caller: Caller; params?: Record<string, unknown>; tool?: boolean }>) => {
  const refs: unknown[] = [];
  clinicApi()
    .post(clinicPath('/appointments'), (b: Record<string, unknown>) => refs.push(b.external_ref) > 0)
    .times(calls.length)
    .reply(...reply('book-appointment'));
  recordedPatientRead('book-appointment', calls.length);
  for (const { caller, params, tool } of calls) {
    const { context } = hookContext(params ?? booking);
    Object.assign(context, {
      isToolExecution: () => !!tool,
      getWorkflowDataProxy: () => ({
        $: () => {
          throw new Error('No trigger of this package before a tool');
        },
        $json: caller,
      }),
    });
    await node.execute.call(context as never);
  }
  return refs;
};

describe('a booking asked by an AI assistant', () => {
  it('asked twice in one MCP session derives one reference (the clinic answers the first booking)', async () => {
    const [first, second] = await refsOf([{ caller: mcpCall('s-1') }, { caller: mcpCall('s-1') }]);
    expect(first).toMatch(/^zap-[0-9a-f]{32}$/);
    expect(second).toBe(first);
  });

  it('asked again in another MCP session (a reconnection, a later chat) meets the same booking', async () => {
    const [one, other, told] = await refsOf([
      { caller: mcpCall('s-1') },
      { caller: mcpCall('s-2') },
      // n8n's own word that the node runs as a tool, where the request's headers do not reach it.
      { caller: undefined, tool: true },
    ]);
    expect(other).toBe(one);
    expect(told).toBe(one);
  });

  it('a workflow step (no assistant) keeps the Zap’s reference, another than the assistant’s', async () => {
    const [assistant, step] = await refsOf([{ caller: mcpCall('s-1') }, { caller: { id: 'form-1' } }]);
    expect(step).not.toBe(assistant);
  });

  it('two people in one session (another phone and name) are two references', async () => {
    const byPhone = (phone: string, name: string) => ({
      ...booking,
      patient_id: '',
      patient_phone: phone,
      patient_name: name,
    });
    const [reem, sara, reemAgain] = await refsOf([
      { caller: mcpCall('s-1'), params: byPhone('0501234567', 'Reem Alharbi') },
      { caller: mcpCall('s-1'), params: byPhone('0559876543', 'Sara Alqahtani') },
      { caller: mcpCall('s-1'), params: byPhone('+966 50 123 4567', 'Reem Alharbi') },
    ]);
    expect(sara).not.toBe(reem);
    // The phone in another form is the same person.
    expect(reemAgain).toBe(reem);
  });

  it('an n8n AI Agent on the Chat Trigger is an assistant too', async () => {
    const [chat, mcp] = await refsOf([
      { caller: { sessionId: 'chat-7', chatInput: 'book me' } },
      { caller: mcpCall('s-1') },
    ]);
    expect(chat).toBe(mcp);
  });
});

describe('the same booking asked again after its cancellation', () => {
  /** The clinic's answer to a reference it has seen: the appointment booked under it, here since cancelled. */
  const [, repeat, headers] = reply('book-appointment-repeat');
  const cancelledRepeat = {
    ...repeat,
    data: { ...repeat.data, status: 'cancelled', cancel_reason: 'patient_request' },
  };

  const run = async (caller: Caller, params: Record<string, unknown> = booking) => {
    const refs: unknown[] = [];
    const answers = [[200, cancelledRepeat, headers], reply('book-appointment')] as const;
    const scope = clinicApi()
      .post(clinicPath('/appointments'), (b: Record<string, unknown>) => refs.push(b.external_ref) > 0)
      .times(caller && !params.external_ref ? 2 : 1)
      .reply(() => answers[refs.length - 1]! as unknown as [number, object, Record<string, string>]);
    // Each answer is read with its patient, the cancelled one too.
    recordedPatientRead('book-appointment', caller && !params.external_ref ? 2 : 1);
    const { context } = hookContext(params);
    Object.assign(context, {
      getWorkflowDataProxy: () => ({
        $: () => {
          throw new Error('No trigger of this package before a tool');
        },
        $json: caller,
      }),
    });
    const [[out]] = (await node.execute.call(context as never)) as unknown as [
      [{ json: Record<string, unknown> }],
    ];
    return { refs, out: out.json, scope };
  };

  it('asked by an assistant, books it again under a reference of its own, and answers the new booking', async () => {
    const { refs, out, scope } = await run(mcpCall('s-1'));
    expect(refs).toHaveLength(2);
    expect(refs[1]).toMatch(/^zap-[0-9a-f]{32}$/);
    expect(refs[1]).not.toBe(refs[0]);
    expect(out).toMatchObject({ status: 'booked', duplicate: false });
    expect(scope.isDone()).toBe(true);
  });

  it('asked by an assistant under a reference it gave, answers the cancelled booking (the reference is the caller’s)', async () => {
    const { refs, out } = await run(mcpCall('s-1'), { ...booking, external_ref: 'chat-42' });
    expect(refs).toEqual(['chat-42']);
    expect(out).toMatchObject({ status: 'cancelled', duplicate: true });
  });

  it('in a workflow step answers the cancelled booking, as a Zap does (a new reference books it again)', async () => {
    const { refs, out } = await run(undefined);
    expect(refs).toHaveLength(1);
    expect(out).toMatchObject({ status: 'cancelled', duplicate: true });
  });
});

describe('what a tool answers of a patient', () => {
  const find = async (asTool: boolean) => {
    clinicApi()
      .get(clinicPath('/patients'))
      .query({ phone: '+966501234567', per_page: '10' })
      .reply(200, { data: [data('find-patient-by-id')], meta: {} });
    const { context } = hookContext({ resource: 'patient', operation: 'find', phone: '0501234567' });
    Object.assign(context, { isToolExecution: () => asTool });
    const [[found]] = (await node.execute.call(context as never)) as unknown as [[{ json: object }]];
    return found.json;
  };

  it('as a tool, the file, the names and the phone; never the birth date, national id, insurer or email', async () => {
    const full = data('find-patient-by-id');
    expect(full).toHaveProperty('birth_date');
    expect(await find(true)).toEqual({
      id: full.id,
      file_no: full.file_no,
      name_ar: full.name_ar,
      name_en: full.name_en,
      phone: full.phone,
    });
  });

  it('as a workflow step, the whole patient, as a Zap’s', async () => {
    expect(await find(false)).toMatchObject({ birth_date: data('find-patient-by-id').birth_date });
  });

  it('as a tool, an appointment’s patient narrowed alike', async () => {
    clinicApi()
      .post(clinicPath('/appointments'))
      .reply(...reply('book-appointment'));
    recordedPatientRead('book-appointment');
    const { context } = hookContext(booking);
    Object.assign(context, { isToolExecution: () => true });
    const [[booked]] = (await node.execute.call(context as never)) as unknown as [
      [{ json: { patient: object } }],
    ];
    expect(Object.keys(booked.json.patient).sort()).toEqual([
      'file_no',
      'name_ar',
      'name_en',
      'phone',
      'status',
    ]);
  });
});
