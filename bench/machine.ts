/** The machine a run was taken on, for RESULTS.md and latest.json. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface Machine {
  date: string;
  os: string;
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  chromium: string;
  node: string;
  loadStart: string;
  loadEnd: string;
  runs: number;
  warmup: number;
}

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

export function machineInfo(chromiumPath: string, runs: number, warmup: number): Machine {
  let osName = `${os.type()} ${os.release()}`;
  try {
    const m = /^PRETTY_NAME="?([^"\n]+)"?/m.exec(readFileSync('/etc/os-release', 'utf8'));
    if (m?.[1]) osName = m[1];
  } catch {
    // keep the kernel name
  }
  let chromium = 'Chromium (version unknown)';
  try {
    chromium = execFileSync(chromiumPath, ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 15_000,
    }).trim();
  } catch {
    // keep unknown
  }
  return {
    date: new Date().toISOString(),
    os: osName,
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown CPU',
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    chromium,
    node: process.version,
    loadStart: load(),
    loadEnd: '',
    runs,
    warmup,
  };
}

export function finishMachine(m: Machine): void {
  m.loadEnd = load();
}
