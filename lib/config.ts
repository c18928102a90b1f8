/**
 * Every choice the specs leave open ("not shown") that the code depends on lives here, once.
 * docs/assumptions.md explains each of them.
 */
export const SETTINGS = {
  /** Largest page the interfaces accept (clinic §8; the cashier's maximum is not shown, assumed the same). */
  maxPerPage: 100,
  /**
   * Action and search steps Zapier lets one connection run a minute on one interface (`throttle`). Both interfaces
   * allow 120 requests a minute per API client; a step costs one to three (a booking and its patient, an item read
   * before its write), and the connection's triggers and samples spend from the same allowance, so 50 steps keep a
   * bulk Zap under the limit with room to spare. A 429 that still comes is the backstop (`ThrottledError`).
   */
  stepsPerMinute: 50,
  /**
   * How long, waits and attempts together, a trigger on Zapier spends on its event's patient read when the read fails
   * for now (429, 5xx, time-out, network) before it fires the item with the patient `unavailable`: Zapier never
   * runs a trigger again (lib/host.ts), and stops one after 30 s; this leaves the rest of the call time to finish.
   */
  triggerReadBudgetMs: 20_000,
  /** Accepted clock difference of a delivery's X-Partner-Timestamp (Unix seconds), both specs. */
  signatureToleranceSeconds: 300,
  /**
   * How long a delivered event id is remembered. The clinic sender retries 10 times from 60 s doubling
   * (about 8.5 hours in all); the cashier's schedule is not shown. Three days covers both with room to spare.
   */
  dedupeTtlSeconds: 3 * 24 * 60 * 60,
  /**
   * How long a write step without an idempotency key (Create Item without SKU or barcode) remembers its run, so a
   * replay finds what the first run made. Zapier's autoreplay retries within about a day; three days leaves room
   * for a replay by hand from the Zap history the next working day.
   */
  writeMemoryTtlSeconds: 3 * 24 * 60 * 60,
  /**
   * How far before a pending write's own time the replay looks for the item it made (`updated_since`): the
   * interface's clock may differ from Zapier's.
   */
  writeLookBackSeconds: 15 * 60,
  /** Items changed since then that a replay reads at most to find its own (the account's recent edits). */
  writeLookBackMaxItems: 500,
  /**
   * How long a pending record may belong to a run still waiting for its answer: Zapier stops an action after 30 s
   * and a request is abandoned after 25 s, so an older one is an answer lost, which a replay may look for.
   */
  writeInFlightSeconds: 60,
  /**
   * How long a run that lost the claim to an identical run waits for that run's item before it fails, and how
   * often it looks: short enough to leave its own answer well inside Zapier's 30 s.
   */
  claimWaitMs: 8_000,
  claimPollMs: 500,
  /**
   * How long Zapier holds an item write's lock (at most 180 s): longer than any run can last, so a lock never
   * lapses under a run still writing; a run that dies without releasing it blocks the next for at most this.
   */
  writeLockSeconds: 60,
  /**
   * How long a run that finds an item's own lock (lib/locks.ts, holdLock) taken waits for it before it fails its
   * step, and how often it tries again: a little, well inside Zapier's 30 s, since the step is replayed.
   */
  lockWaitMs: 5_000,
  lockPollMs: 250,
  /** Objects asked of the clinic recent-events list for a sample. */
  recentLimit: 3,
  /** Recent appointment updates read for a status trigger's samples, of which up to `recentLimit` are kept. */
  recentLimitForStatus: 25,
  /**
   * Pages of consenting customers changed around a new customer's event that New Customer's consent check reads at
   * most (100 each) to find that customer; a check that would need more fails visibly rather than guess.
   */
  consentCheckMaxPages: 20,
  /**
   * The longest interval between two polls of a trigger on any Zapier plan (1 to 15 minutes by plan). Appointment
   * Starting Soon needs Minutes Before Start at least this long so no appointment starts between two polls unseen.
   */
  slowestPollMinutes: 15,
  /**
   * Pages of 100 a sample reads at most of a list that gives its newest objects last (the cashier's receipts): a shop
   * with more receipts than that shows real but older ones, rather than a Zap editor kept waiting.
   */
  sampleCursorPages: 5,
  /**
   * Pages of 100 Find Appointment reads at most of a patient's or a range's appointments, to give the earliest first
   * (the clinic's list order is not shown): five requests, well inside a step's 30 s. A range that holds more says so
   * (`found_complete` false) rather than pass off a later appointment as the earliest.
   */
  findAppointmentPages: 5,
  /**
   * Appointments Find Appointment returns, earliest first: each distinct patient among them costs one more request,
   * so 25 keep a step at most 5 + 25 requests.
   */
  findAppointmentResults: 25,
  /** Pages a polling trigger reads at most in one poll (100 objects each). */
  maxPollPages: 5,
  /** Objects a page of Zapier Transfer (bulk read) asks of a list: the interfaces' maximum, one request a page. */
  transferPageSize: 100,
  /**
   * The same with Include Patient Details on: each distinct patient of a page costs one more request, and the clinic
   * allows 120 a minute while Zapier gives a page about 60 s. 25 objects make at most 26 requests a page.
   */
  transferPageSizeWithPatient: 25,
  /**
   * List pages one Transfer call reads at most while filters the interface cannot apply (or New Receipt's credit
   * notes) leave nothing of a page: an empty answer would end the transfer.
   */
  transferReadsPerCall: 5,
  /**
   * Pages one Transfer call reads at most of a list it reads whole because the interface does not show its order
   * (Stock Low's levels): 20 requests stay well inside a call's 60 s and a sixth of the minute's 120.
   */
  transferWholeListPages: 20,
  /**
   * List pages one Transfer call reads at most while it checks, after the end, the upcoming booked and confirmed
   * appointments for one rescheduled behind the place while it ran: most pages hand on nothing, and an empty answer
   * would end the transfer, so a call reads on (30 requests, a quarter of the minute's 120).
   */
  transferRecheckReadsPerCall: 30,
  /**
   * How far the interface's clock may be from Zapier's when a transfer compares an object's `updated_at` and
   * `created_at` with the moment it began.
   */
  transferClockSkewSeconds: 300,
} as const;

/**
 * Milliseconds one request to an interface may take before it is abandoned with a clear message. Zapier stops an
 * action after 30 s; PARTNER_REQUEST_TIMEOUT_MS shortens it (the fault suite uses it, so it need not wait 25 s).
 */
export const requestTimeoutMs = (): number => Number(process.env.PARTNER_REQUEST_TIMEOUT_MS) || 25_000;
