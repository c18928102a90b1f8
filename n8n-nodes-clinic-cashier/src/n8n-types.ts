/**
 * The parts of n8n-workflow's interfaces the nodes use. The package has no runtime dependency on n8n-workflow (a
 * peer n8n provides); the root installs it only for n8n's lint plugin (eslint.n8n.mjs), and the sources do not
 * import it.
 */
export type NodeProperty = {
  displayName: string;
  name: string;
  type: string;
  default: unknown;
  description?: string;
  required?: boolean;
  placeholder?: string;
  noDataExpression?: boolean;
  options?: NodeOption[] | NodeCollectionOption[];
  typeOptions?: Record<string, unknown>;
  displayOptions?: { show?: Record<string, unknown[]> };
};

export type NodeOption = { name: string; value: string; description?: string; action?: string };

/** One kind of row of a fixedCollection, with its own properties. */
export type NodeCollectionOption = { name: string; displayName: string; values: NodeProperty[] };

export interface NodeDescription {
  displayName: string;
  name: string;
  icon?: string;
  group: string[];
  /** The versions n8n can run; a node added in the editor gets `defaultVersion`, else the highest. */
  version: number | number[];
  defaultVersion?: number;
  description: string;
  subtitle?: string;
  defaults: { name: string };
  inputs: string[];
  outputs: string[];
  credentials: Array<{ name: string; required: boolean; testedBy?: string }>;
  properties: NodeProperty[];
  webhooks?: Array<{ name: string; httpMethod: string; responseMode: string; path: string }>;
  polling?: boolean;
  usableAsTool?: boolean;
}

type Json = Record<string, unknown>;

interface Common {
  getNodeParameter(name: string, itemIndex?: number, fallback?: unknown): unknown;
  getCredentials(name: string): Promise<Json>;
  getWorkflow(): { id?: string };
  getNode(): { name?: string; parameters: Json; credentials?: Json };
}

export interface HookFunctions extends Common {
  /** 'manual' for the editor's test webhook ("Listen for test event"), else the workflow's activation. */
  getMode?(): string;
  getNodeWebhookUrl(name: string): string | undefined;
  logger: { warn(message: string): void };
  getWorkflowStaticData(type: 'node' | 'global'): Json;
}

export interface WebhookFunctions extends Common {
  logger: { warn(message: string): void };
  getWorkflowStaticData(type: 'node' | 'global'): Json;
  getRequestObject(): {
    headers: Record<string, string | string[] | undefined>;
    rawBody?: Buffer;
    body?: unknown;
  };
  getResponseObject(): { status(code: number): { json(body: unknown): void } };
}

export interface ExecuteFunctions extends Common {
  /** The workflow's nodes before `nodeName`, with their types. */
  getParentNodes(nodeName: string): Array<{ name: string; type: string }>;
  /** n8n's expression data for an input item: `$(node).item` follows the item's pairing back to that node. */
  getWorkflowDataProxy(itemIndex: number): {
    $(nodeName: string): { item?: { json?: Json } };
    /** The item the node's expressions read as `$json`; for a tool, the item of the node that called it. */
    $json?: Json;
  };
  getInputData(): Array<{ json: Json } & Record<string, unknown>>;
  /** The workflow's timezone setting, else the instance's GENERIC_TIMEZONE (an IANA name). */
  getTimezone(): string;
  getWorkflowStaticData(type: 'node' | 'global'): Json;
  continueOnFail(): boolean;
  /** True when an AI agent or n8n's MCP Server Trigger called the node as a tool (absent before n8n 1.x tools). */
  isToolExecution?(): boolean;
}

export interface PollFunctions extends Omit<Common, 'getNodeParameter'> {
  // A poll has no input items: n8n's second argument is the fallback value.
  getNodeParameter(name: string, fallback?: unknown): unknown;
  getWorkflowStaticData(type: 'node' | 'global'): Json;
  getMode(): string;
}

export interface LoadOptionsFunctions {
  getCredentials(name: string): Promise<Json>;
  /** The node's parameters as the editor holds them now (top level; a collection's rows nested). */
  getCurrentNodeParameters(): Json | undefined;
}

export interface CredentialTestFunctions {
  // n8n passes the credential's data under `data` to a node's credentialTest method.
  [key: string]: unknown;
}

/**
 * A node class, under n8n-workflow's name for it: n8n's lint rules (eslint.n8n.mjs) find node and credential classes
 * by `implements INodeType` / `implements ICredentialType`.
 */
export interface INodeType {
  description: NodeDescription;
}

export interface ICredentialType {
  name: string;
  displayName: string;
  icon?: string;
  documentationUrl?: string;
  properties: NodeProperty[];
}
