import type { ToolDefinition } from '../tool.js';
import { actTool } from './act.js';
import { clickTool } from './click.js';
import { dragTool } from './drag.js';
import { fileUploadTool } from './file-upload.js';
import { handleDialogTool } from './handle-dialog.js';
import { hoverTool } from './hover.js';
import { navigateTool } from './navigate.js';
import { pointTool } from './point.js';
import { pressKeyTool } from './press-key.js';
import { screenshotTool } from './screenshot.js';
import { scrollTool } from './scroll.js';
import { selectOptionTool } from './select-option.js';
import { tabsTool } from './tabs.js';
import { typeTool } from './type.js';
import { waitForTool } from './wait-for.js';
import { zoomTool } from './zoom.js';

// biome-ignore lint/suspicious/noExplicitAny: each tool has its own schema; the list is heterogeneous.
export const TOOLS: ToolDefinition<any>[] = [
  navigateTool,
  screenshotTool,
  zoomTool,
  clickTool,
  pointTool,
  hoverTool,
  dragTool,
  typeTool,
  pressKeyTool,
  scrollTool,
  selectOptionTool,
  fileUploadTool,
  handleDialogTool,
  tabsTool,
  waitForTool,
  actTool,
];
