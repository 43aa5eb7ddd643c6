import { choose, clamp, FIXED_ISO, fakeId, hash, n, pick, record, s, strings } from './input';
import { arr, bool, type ExampleTool, enumOf, int, obj, str, tool } from './types';

const ENVS = ['development', 'staging', 'production'] as const;
const serviceProp = str('Service name, e.g. "checkout-api".');
const namespaceProp = str('Kubernetes namespace; defaults to "default".');

export const devopsTools: ExampleTool[] = [
  tool(
    'k8s_list_pods',
    'List pods in a Kubernetes namespace with status, restarts and node.',
    { namespace: namespaceProp, labelSelector: str('Label selector, e.g. "app=web".') },
    [],
    (input) => {
      const ns = s(input, 'namespace', 'default');
      return {
        namespace: ns,
        pods: [1, 2, 3].map((i) => ({
          name: `web-${hash(ns + i)
            .toString(36)
            .slice(0, 5)}`,
          phase: choose(ns + i, ['Running', 'Running', 'Pending', 'CrashLoopBackOff'] as const),
          restarts: pick(`${ns}r${i}`, 0, 6),
          node: `node-${pick(ns + i, 1, 4)}`,
        })),
      };
    },
  ),
  tool(
    'k8s_get_pod_logs',
    'Fetch recent log lines from a pod container.',
    {
      namespace: namespaceProp,
      pod: str('Pod name.'),
      container: str('Container name, if the pod has several.'),
      tailLines: int('Number of lines from the end.', 1, 5000),
      previous: bool('Logs from the previous (crashed) container instance.'),
    },
    ['pod'],
    (input) => {
      const pod = s(input, 'pod', 'pod');
      const count = clamp(n(input, 'tailLines', 3), 1, 5);
      return {
        pod,
        lines: Array.from(
          { length: count },
          (_, i) => `${FIXED_ISO} INFO ${pod} request ${pick(pod + i, 100, 999)} handled`,
        ),
      };
    },
  ),
  tool(
    'k8s_scale_deployment',
    'Scale a Kubernetes deployment to a number of replicas.',
    {
      namespace: namespaceProp,
      deployment: str('Deployment name.'),
      replicas: int('Desired replicas.', 0, 500),
    },
    ['deployment', 'replicas'],
    (input) => ({
      deployment: s(input, 'deployment'),
      previousReplicas: pick(s(input, 'deployment'), 1, 6),
      replicas: n(input, 'replicas', 1),
    }),
  ),
  tool(
    'k8s_rollout_restart',
    'Restart all pods of a deployment with a rolling update.',
    { namespace: namespaceProp, deployment: str('Deployment name.') },
    ['deployment'],
    (input) => ({ deployment: s(input, 'deployment'), restartedAt: FIXED_ISO, status: 'rolling' }),
  ),
  tool(
    'kubectlApplyManifest',
    'Apply a Kubernetes YAML manifest, optionally as a server-side dry run.',
    {
      manifest: str('YAML manifest text.'),
      namespace: namespaceProp,
      dryRun: bool('Validate without applying.'),
    },
    ['manifest'],
    (input) => {
      const kinds = (s(input, 'manifest').match(/kind:\s*(\w+)/g) ?? []).map((k) =>
        k.replace(/kind:\s*/, ''),
      );
      return { applied: kinds.length > 0 ? kinds : ['Unknown'], dryRun: input.dryRun === true };
    },
  ),
  tool(
    'deployService',
    'Deploy a version of a service to an environment.',
    {
      service: serviceProp,
      version: str('Image tag or git SHA to deploy.'),
      environment: enumOf(ENVS, 'Target environment.'),
      strategy: enumOf(['rolling', 'blue_green', 'canary'], 'Rollout strategy.'),
      canaryPercent: int('Traffic share for canary deploys.', 1, 100),
    },
    ['service', 'version', 'environment'],
    (input) => ({
      deploymentId: fakeId('dep', s(input, 'service') + s(input, 'version')),
      service: s(input, 'service'),
      environment: s(input, 'environment', 'staging'),
      status: 'in_progress',
    }),
  ),
  tool(
    'rollbackDeployment',
    'Roll a service back to its previous successful deployment.',
    { service: serviceProp, environment: enumOf(ENVS, 'Environment.'), reason: str('Why.') },
    ['service', 'environment'],
    (input) => ({
      service: s(input, 'service'),
      rolledBackTo: `v1.${pick(s(input, 'service'), 0, 40)}.0`,
      status: 'in_progress',
    }),
  ),
  tool(
    'ci.get-pipeline-status',
    'Get the status of the latest CI pipeline run for a branch, with failing jobs.',
    { project: str('Project or repository.'), branch: str('Branch name.') },
    ['project'],
    (input) => {
      const key = s(input, 'project') + s(input, 'branch', 'main');
      const status = choose(key, ['success', 'failed', 'running'] as const);
      return {
        pipelineId: pick(key, 10000, 99999),
        status,
        failedJobs: status === 'failed' ? ['unit-tests'] : [],
      };
    },
  ),
  tool(
    'ci.retry-job',
    'Retry a failed CI job.',
    { project: str('Project or repository.'), jobId: int('Job id.', 1) },
    ['project', 'jobId'],
    (input) => ({
      jobId: n(input, 'jobId', 1) + 1,
      retriedFrom: n(input, 'jobId', 1),
      status: 'pending',
    }),
  ),
  tool(
    'monitoring__query_metrics',
    'Query a time-series metric (e.g. p95 latency, error rate) for a service.',
    {
      service: serviceProp,
      metric: enumOf(
        ['latency_p95_ms', 'error_rate', 'requests_per_second', 'cpu_percent', 'memory_mb'],
        'Metric.',
      ),
      window: enumOf(['15m', '1h', '6h', '24h', '7d'], 'Look-back window.'),
      groupBy: arr(str('Label.'), 'Labels to group by.'),
    },
    ['service', 'metric'],
    (input) => {
      const key = s(input, 'service') + s(input, 'metric');
      return {
        metric: s(input, 'metric', 'latency_p95_ms'),
        window: s(input, 'window', '1h'),
        points: [0, 1, 2, 3].map((i) => ({ t: i, value: pick(key + i, 1, 500) })),
      };
    },
  ),
  tool(
    'monitoring__list_alerts',
    'List firing and recently resolved monitoring alerts.',
    { state: enumOf(['firing', 'resolved', 'all'], 'Alert state.'), service: serviceProp },
    [],
    (input) => {
      const state = s(input, 'state', 'firing');
      return {
        alerts: [
          {
            id: fakeId('al', state + s(input, 'service')),
            name: 'HighErrorRate',
            service: s(input, 'service', 'checkout-api'),
            state,
          },
        ],
      };
    },
  ),
  tool(
    'monitoring__silence_alert',
    'Silence an alert for a period, e.g. during maintenance.',
    {
      alertId: str('Alert id.'),
      durationMinutes: int('Silence length.', 1, 10080),
      comment: str('Why.'),
    },
    ['alertId', 'durationMinutes'],
    (input) => ({
      silenceId: fakeId('sil', s(input, 'alertId')),
      durationMinutes: n(input, 'durationMinutes', 60),
    }),
  ),
  tool(
    'pagerduty_trigger_incident',
    'Page the on-call engineer by opening an incident for a service.',
    {
      service: serviceProp,
      title: str('Incident title.'),
      urgency: enumOf(['high', 'low'], 'Incident urgency.'),
      details: obj({}, [], 'Extra context shown to the responder.'),
    },
    ['service', 'title'],
    (input) => ({
      incidentId: fakeId('inc', s(input, 'title')),
      status: 'triggered',
      urgency: s(input, 'urgency', 'high'),
      contextKeys: Object.keys(record(input, 'details')),
    }),
  ),
  tool(
    'pagerduty_get_oncall',
    'Find who is currently on call for an escalation policy or service.',
    { service: serviceProp },
    ['service'],
    (input) => {
      const svc = s(input, 'service', 'svc');
      return {
        service: svc,
        primary: `oncall${pick(svc, 1, 9)}@example.com`,
        secondary: `oncall${pick(`${svc}2`, 10, 19)}@example.com`,
      };
    },
  ),
  tool(
    'cloud_list_instances',
    'List virtual machine instances in a region with state and type.',
    {
      region: str('Cloud region, e.g. "us-east-1".'),
      tags: arr(str('Tag as key=value.'), 'Tag filters.'),
    },
    ['region'],
    (input) => {
      const region = s(input, 'region', 'us-east-1');
      return {
        region,
        filters: strings(input, 'tags'),
        instances: [1, 2].map((i) => ({
          id: `i-${hash(region + i).toString(16)}`,
          type: choose(region + i, ['t3.small', 'm5.large', 'c6g.xlarge'] as const),
          state: 'running',
        })),
      };
    },
  ),
];
