import type { ToolDefinition } from '../tool.js';
import { clickTool } from './click.js';
import { navigateTool } from './navigate.js';
import { pointTool } from './point.js';
import { pressKeyTool } from './press-key.js';
import { screenshotTool } from './screenshot.js';
import { scrollTool } from './scroll.js';
import { typeTool } from './type.js';

// biome-ignore lint/suspicious/noExplicitAny: each tool has its own schema; the list is heterogeneous.
export const TOOLS: ToolDefinition<any>[] = [
  navigateTool,
  screenshotTool,
  clickTool,
  pointTool,
  typeTool,
  pressKeyTool,
  scrollTool,
];
