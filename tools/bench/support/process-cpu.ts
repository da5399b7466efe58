import { readdirSync, readFileSync } from 'node:fs';

/** CPU seconds (user + system) of a process and its live descendants, from /proc. */
export function treeCpuSeconds(pid: number): number {
  const tick = 100;
  let total = 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    total += (Number(fields[11]) + Number(fields[12])) / tick;
  } catch {
    return 0;
  }
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    let children = '';
    try {
      children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const child of children.split(' ').filter(Boolean)) total += treeCpuSeconds(Number(child));
  }
  return total;
}

/** CPU seconds (user + system) this process has used. */
export function ownCpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/**
 * CPU seconds a process's threads have run (the sum of /proc/<pid>/task/<tid>/schedstat,
 * nanoseconds: finer than the 10 ms ticks of `stat`, for per-request figures over a few
 * hundred requests). Threads that ended meanwhile are not counted; 0 once the process is gone.
 */
export function threadsCpuSeconds(pid: number): number {
  let ns = 0;
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  for (const task of tasks) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended
    }
  }
  return ns / 1e9;
}
