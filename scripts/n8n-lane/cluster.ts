/**
 * n8n in queue mode as a clinic would run it (PLATFORM-NOTES, "n8n queue mode"): one main process (the editor,
 * REST and activation; production webhooks off), one webhook processor (`n8n webhook`) that answers the deliveries
 * and puts executions on the queue, and two workers (`n8n worker`) that run them; all on one PostgreSQL and one
 * Redis, one encryption key, each process with its own ports, user folder and log.
 *
 * Each worker takes one execution at a time, so two executions started together run on both workers, never one
 * after the other on one.
 */
import { readFileSync } from 'node:fs';
import { startN8n, userFolderFor, type N8n } from './processes';

export interface ClusterOptions {
  runDir: string;
  nodesFolder: string;
  postgresPort: number;
  database: string;
  redisPort: number;
  webhookUrl: string;
  /** Executions a worker runs at once: 1 for the checks (see above), n8n's default of 10 for the bench. */
  workerConcurrency?: number;
}

/** A cluster's options on the lane's PostgreSQL and Redis, its deliveries arriving through the gateway at `gatewayUrl`. */
export const clusterOn = (
  o: { runDir: string; nodesFolder: string; gatewayUrl: string },
  pg: { port: number; database: string },
  redis: { port: number },
  workerConcurrency?: number,
): ClusterOptions => ({
  runDir: o.runDir,
  nodesFolder: o.nodesFolder,
  postgresPort: pg.port,
  database: pg.database,
  redisPort: redis.port,
  webhookUrl: `${o.gatewayUrl}/`,
  workerConcurrency,
});

export interface Cluster {
  main: N8n;
  webhook: N8n;
  workers: N8n[];
}

const sharedEnv = (o: ClusterOptions): Record<string, string> => ({
  DB_TYPE: 'postgresdb',
  DB_POSTGRESDB_HOST: '127.0.0.1',
  DB_POSTGRESDB_PORT: String(o.postgresPort),
  DB_POSTGRESDB_DATABASE: o.database,
  DB_POSTGRESDB_USER: 'postgres',
  DB_POSTGRESDB_PASSWORD: '',
  EXECUTIONS_MODE: 'queue',
  QUEUE_BULL_REDIS_HOST: '127.0.0.1',
  QUEUE_BULL_REDIS_PORT: String(o.redisPort),
  WEBHOOK_URL: o.webhookUrl,
});

let started = 0;

/** Starts one worker; `name` tells its log apart. */
export const startWorker = (o: ClusterOptions, name = `worker-${(started += 1)}`) =>
  startN8n({
    name,
    role: 'worker',
    runDir: o.runDir,
    env: { ...sharedEnv(o), N8N_USER_FOLDER: userFolderFor(o.runDir, name, o.nodesFolder) },
    args: [`--concurrency=${o.workerConcurrency ?? 1}`],
  });

/**
 * Starts the main process, the webhook processor and two workers together: the first to take n8n's migration lock
 * migrates the database while the others load their nodes, then wait for the lock and find nothing to do.
 */
export const startCluster = async (o: ClusterOptions): Promise<Cluster> => {
  const [main, webhook, ...workers] = await Promise.all([
    startN8n({
      name: 'main',
      role: 'main',
      runDir: o.runDir,
      env: {
        ...sharedEnv(o),
        N8N_USER_FOLDER: userFolderFor(o.runDir, 'main', o.nodesFolder),
        N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
      },
    }),
    startN8n({
      name: 'webhook',
      role: 'webhook',
      runDir: o.runDir,
      env: { ...sharedEnv(o), N8N_USER_FOLDER: userFolderFor(o.runDir, 'webhook', o.nodesFolder) },
    }),
    startWorker(o),
    startWorker(o),
  ]);
  return { main: main!, webhook: webhook!, workers };
};

/** Stops every n8n process of the cluster: workers and the webhook processor first, then main. */
export const stopCluster = async (c: Cluster) => {
  await Promise.all([...c.workers, c.webhook].map((p) => p.stop()));
  await c.main.stop();
};

/** The worker whose log says it started an execution, if any did yet. */
export const workerOf = (c: Cluster, executionId: string) =>
  c.workers.find((w) => readFileSync(w.log, 'utf8').includes(`Worker started execution ${executionId} (`));
