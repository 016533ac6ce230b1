#!/usr/bin/env node
import { Command, Option } from 'commander';
import { capsHelp, capsTable } from '../mcp/cap-costs.js';
import { VERSION } from '../version.js';
import {
  parseEndpoints,
  parseInstance,
  parseList,
  parseNonNegativeInt,
  parsePositive,
  parseViewport,
} from './options.js';

const program = new Command()
  .name('trueclick')
  .description(
    'Clicks read off a screenshot land on what the model meant, or do not happen and the agent is told why.',
  )
  .version(VERSION);

function browserOptions(cmd: Command): Command {
  return cmd
    .option('--executable-path <path>', 'Chromium binary (default: CHROME_PATH, then /usr/bin/chromium)')
    .option('--cdp-endpoint <url>', 'attach to a running browser, e.g. http://127.0.0.1:9222')
    .option(
      '--browser-endpoint <ws>',
      "use a browser server that speaks Playwright's protocol (playwright-core launchServer, a browser service); repeat it or separate with commas for several, sessions spread over those that answer",
      (v: string, all: string[] = []) => [...all, ...parseEndpoints(v)],
    )
    .option('--isolated', 'with --cdp-endpoint: a context of our own instead of the user’s tabs')
    .option(
      '--user-data-dir <dir>',
      'run on a persistent profile (its logins and storage); with --auto-connect, the profile to find',
    )
    .option(
      '--auto-connect',
      'attach to the running Chrome that allows remote debugging (chrome://inspect/#remote-debugging)',
    )
    .option(
      '--storage-state <file>',
      'start each context from a Playwright storage state file (cookies, storage)',
    )
    .option('--device-scale-factor <n>', 'devicePixelRatio to run at, e.g. 2 or 1.65', parsePositive)
    .option('--viewport <WxH>', 'viewport in CSS px (default 1280x800)', parseViewport)
    .addOption(
      new Option('--scale-source <kind>', 'how the scale factor is set').choices(['emulated', 'real']),
    )
    .option('--headless', 'run without a window (default)', true)
    .option('--headed', 'show the browser window')
    .option('--hide-scrollbars', 'hide classic scrollbars')
    .option(
      '--max-image-edge <px>',
      'long edge of screenshots sent to the model (default 1568, 0 = full resolution)',
      parseNonNegativeInt,
    );
}

function flags(o: Record<string, unknown>) {
  return { ...o, headless: o.headed ? false : (o.headless as boolean | undefined) };
}

browserOptions(
  program
    .command('serve')
    .description('run the MCP server (stdio by default)')
    .option('--http <port>', 'serve streamable HTTP on this port instead of stdio', parseNonNegativeInt)
    .option('--host <host>', 'address to bind with --http (default 127.0.0.1)')
    .option(
      '--token <token>',
      'bearer token HTTP clients must send, or several comma-separated, one per caller (or TRUECLICK_TOKEN)',
    )
    .option('--shared', 'with --http: one browser and one set of frames for all clients')
    .option('--extension', 'act on the tabs the user shares through the trueclick extension')
    .option('--caps <list>', `tool groups to offer beside core: ${capsHelp()}`, parseList)
    .option('--trace-dir <dir>', 'write a trace of every call (and the frames) to a session folder in <dir>')
    .option(
      '--trace-max-mb <n>',
      'with --trace-dir: drop the oldest frame images past this size (default 200)',
      parsePositive,
    )
    .option(
      '--secret <value>',
      'a value never written to a trace (repeat the flag for several; also TRUECLICK_SECRETS, comma-separated)',
      (v: string, all: string[] = []) => [...all, v],
    )
    .option(
      '--browser-per-session',
      'with --http: a browser of its own per session (default: an isolated context on one browser)',
    )
    .option(
      '--max-sessions <n>',
      'with --http: at most this many sessions at once (default 16)',
      parsePositive,
    )
    .option(
      '--session-idle-s <s>',
      'with --http: close a session idle this long, seconds (default 1800, 0 = never)',
      parseNonNegativeInt,
    )
    .option(
      '--instance <name>',
      "with --http: this server's name in a fleet, a-z 0-9 and - (up to 32); its session ids and handles start with it (or TRUECLICK_INSTANCE; default: random)",
      parseInstance,
    )
    .option(
      '--approve <which>',
      'ask the person before a press: destructive (delete, buy, send, a POST form, …), all, or off (default)',
    )
    .option('--approve-when <regex>', 'presses whose control name matches ask too')
    .option(
      '--approve-timeout <s>',
      "how long a call waits for the person's answer on the approval page, seconds (default 300)",
      parseNonNegativeInt,
    )
    .option(
      '--approve-port <port>',
      'port of the local approval page on 127.0.0.1, for clients without form elicitation (default: any free one)',
      parseNonNegativeInt,
    )
    .option(
      '--fleet-secret <secret>',
      "with --http: the key every server of a fleet shares, to tell a forged handle from another server's (or TRUECLICK_FLEET_SECRET; default: random)",
    )
    .option(
      '--upload-dir <dir>',
      'the only folder browser_file_upload takes files from (default: the working directory)',
    )
    .option(
      '--allow-url-scheme <list>',
      'URL schemes to allow beyond http, https and about, e.g. data,file',
      parseList,
    )
    .option(
      '--allowed-origins <list>',
      'only these origins may be opened, e.g. "https://app.example.com;*.example.org"',
      parseList,
    )
    .option(
      '--blocked-origins <list>',
      'these origins may never be opened (typed, by a link, a redirect or an iframe)',
      parseList,
    ),
)
  .addHelpText(
    'after',
    `\nTool groups for --caps (tokens the model reads of the tool definitions on every step):\n${capsTable()}`,
  )
  .action(async (o) => {
    const { serve } = await import('./serve.js');
    try {
      await serve(flags(o));
    } catch (err) {
      console.error(`trueclick serve: ${(err as Error).message}`);
      process.exitCode = 2;
    }
  });

program
  .command('demo')
  .description('show a naive screenshot click missing beside trueclick hitting, and the stale guard at work')
  .option('--out <dir>', 'folder for the annotated screenshots', 'out')
  .option('--json', 'print the results as JSON')
  .option('--executable-path <path>', 'Chromium binary')
  .action(async (o) => {
    const { demo } = await import('./demo.js');
    process.exitCode = await demo(o);
  });

program
  .command('report <dir>')
  .description('write report.html beside the newest session trace in <dir> (a --trace-dir folder)')
  .option('--out <file>', 'write the report here instead')
  .action(async (dir: string, o: { out?: string }) => {
    const { writeReport } = await import('./report.js');
    try {
      const r = writeReport(dir, o.out);
      console.log(`${r.file}: ${r.steps} steps`);
    } catch (err) {
      console.error(`trueclick report: ${(err as Error).message}`);
      process.exitCode = 2;
    }
  });

program
  .command('diagnose <file>')
  .description('fit intended vs actual click points (JSON or CSV) and name the frame error')
  .action(async (file: string) => {
    const { runDiagnose } = await import('./diagnose.js');
    try {
      console.log(runDiagnose(file));
    } catch (err) {
      console.error(`trueclick diagnose: ${(err as Error).message}`);
      process.exitCode = 2;
    }
  });

program
  .command('matrix')
  .description(
    'grounding round trip over DPR, scale source, scrollbar, scroll, client downscale, preset and target',
  )
  .option('--quick', 'the reduced matrix of npm test (DPR 1, 1.65, 2; 10 presets; near and far targets)')
  .option('--dpr <list>', 'devicePixelRatios, e.g. 1,2 (default 1,1.25,1.5,1.65,2,3)')
  .option('--sources <list>', 'scale sources: emulated,real')
  .option('--scrollbars <list>', 'scrollbars: hidden,classic')
  .option('--scrolls <list>', 'scroll states: top,scrolled')
  .option('--downscales <list>', 'image as the model saw it: none,full,client-1568,shown-1000')
  .option('--presets <list>', 'model presets, e.g. gemini,claude (default: all)')
  .option('--targets <list>', 'targets of the fixture page: near,far,edge')
  .option('--url <url>', "run on your own page instead of trueclick's fixture (with --target)")
  .option(
    '--target <selector>',
    'with --url: a target, as a Playwright selector (CSS, text=…, role=…) or name=<accessible name>; repeat it',
    (v: string, prev: string[] = []) => [...prev, v],
  )
  .option('--targets-file <file>', 'with --url: targets, one per line ("# " or "//" starts a comment)')
  .option('--viewport <WxH>', 'with --url: viewport in CSS px (default 1280x800)', parseViewport)
  .option('--storage-state <file>', 'with --url: a Playwright storage state to start from (a login)')
  .option('--user-data-dir <dir>', 'with --url: a persistent profile to run on (a login)')
  .option(
    '--trace-dir <dir>',
    'with --url: trace the clicks (one session folder per browser config; see report)',
  )
  .option('--no-naive', 'skip the naive pipeline (model numbers used as CSS px)')
  .option('--concurrency <n>', 'browsers at once (default 1)', parseNonNegativeInt)
  .option('--json', 'print the results as JSON')
  .option('--executable-path <path>', 'Chromium binary')
  .action(async (o) => {
    const { matrix } = await import('./matrix/index.js');
    process.exitCode = await matrix(o);
  });

browserOptions(
  program
    .command('churn <url>')
    .description('share of 1-second windows in which the page changes its layout: the collision probability')
    .option('--selector <css>', 'watch only under these elements (e.g. the list you click in)')
    .option('--seconds <n>', 'how long to watch', parsePositive, 10)
    .option('--json', 'print the result as JSON'),
).action(async (url: string, o) => {
  const { churn } = await import('./churn.js');
  try {
    process.exitCode = await churn(url, { ...flags(o), seconds: Math.max(1, Math.round(o.seconds)) });
  } catch (err) {
    console.error(`trueclick churn: ${(err as Error).message}`);
    process.exitCode = 2;
  }
});

browserOptions(
  program.command('doctor').description('check the browser and show the frame trueclick measures'),
).action(async (o) => {
  const { doctor } = await import('./doctor.js');
  process.exitCode = await doctor(flags(o));
});

await program.parseAsync();
