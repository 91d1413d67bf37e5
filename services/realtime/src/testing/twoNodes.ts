/**
 * TEST-ONLY: auth, boards, two realtime nodes sharing one snapshot directory, and the gateway:
 * the stack of the failover and collaboration-minutes tests. The harness keys deployables by
 * directory, so the second node is the same package under another path.
 */
import { freePort, startStack } from '@wb/platform/testing';
import type { RunningStack } from '@wb/platform/testing';

export const TWO_NODES = {
  secret: 'integration-test-shared-secret-0123456789',
  nodeA: 'services/realtime',
  nodeB: './services/realtime',
  /** generous for 2 busy cores (a starved event loop must not make a healthy node look dead), short enough for a killed node's boards to move within a test */
  nodeTtlMs: 3000,
} as const;

export async function startTwoNodeStack(snapshotDir: string): Promise<RunningStack> {
  const { secret, nodeA, nodeB, nodeTtlMs } = TWO_NODES;
  const common = {
    RT_SHARED_SECRET: secret,
    SNAPSHOT_DIR: snapshotDir,
    RT_LEASE_MS: '1500',
    RT_NODE_TTL_MS: String(nodeTtlMs),
  };
  return startStack({
    deployables: ['services/auth', 'services/boards', nodeA, nodeB, 'gateway'],
    env: { RT_SHARED_SECRET: secret, RT_NODE_TTL_MS: String(nodeTtlMs) },
    envFor: {
      [nodeA]: { ...common, RT_NODE_ID: 'rt-1', RT_PORT: String(await freePort()) },
      [nodeB]: { ...common, RT_NODE_ID: 'rt-2', RT_PORT: String(await freePort()) },
    },
  });
}
