import { z } from 'zod';
import { effectsOf, effectsSentence } from '../../actions/session/page-watch.js';
import type { ClickRequest } from '../../actions/verbs/click.js';
import { documented } from '../field-docs.js';
import { reportShape } from '../outcome.js';
import { reportResult, request } from '../report.js';
import { ResponseBuilder } from '../response.js';
import { hasTarget, targetShape } from '../target-schema.js';
import { defineTool } from '../tool.js';

export const fileUploadTool = defineTool({
  name: 'browser_file_upload',
  title: 'Upload files through a file chooser',
  description:
    'Put files into the file chooser a target opens (clicked as browser_click), or the one already open. Paths are inside the upload folder.',
  type: 'input',
  cap: 'forms',
  inputSchema: {
    paths: documented(
      z.array(z.string().min(1).max(4_096)).min(1).max(20),
      'The files (1–20), each a regular file inside the upload folder (`serve --upload-dir`, default the working directory); a relative path is read from that folder. One bad path refuses the whole upload.',
    ),
    ...targetShape,
  },
  outputSchema: {
    files: z
      .array(z.object({ path: z.string(), name: z.string(), size: z.number() }))
      .optional()
      .describe('The files put into the chooser (size in bytes).'),
    multiple: z.boolean().optional().describe('Whether the file chooser takes several files.'),
    click: z
      .looseObject(reportShape)
      .nullable()
      .optional()
      .describe('The click on the target, if one was given.'),
    ...reportShape,
  },
  undone: 'Nothing was uploaded.',
  refusalShape: { files: [] },
  async handle(session, args) {
    const { paths, ...target } = args;
    const req = request<ClickRequest>(target);
    const r = await session.upload(paths, hasTarget(req as Record<string, unknown>) ? req : undefined);
    if (r.click && r.click.verdict !== 'OK') return reportResult(r.click, ['Nothing was uploaded.']);
    const message = `Put ${r.files.map((f) => `${f.name} (${f.size} bytes)`).join(', ')} into the file chooser${r.click ? ` opened by ${r.click.message.replace(/\.$/, '')}` : ''}.${effectsSentence(r)}`;
    return new ResponseBuilder()
      .line(message)
      .structuredContent({
        verdict: 'OK',
        message,
        files: r.files,
        multiple: r.multiple,
        click: r.click ?? null,
        ...effectsOf(r),
      })
      .build();
  },
});
