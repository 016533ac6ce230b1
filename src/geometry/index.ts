// trueclick/geometry: conventions, presets, parsing, resolving and the affine diagnosis. No browser, no MCP.

export {
  type AffineFit,
  type AxisFit,
  fitAffine,
  fitSwapped,
  type Sample,
  validateSamples,
} from './affine.js';
export { COMMON_DPRS, explainOffset, explainScale } from './causes.js';
export {
  AXIS_ORDERS,
  type AxisOrder,
  BOX_FORMATS,
  type BoxFormat,
  type Convention,
  ORIGINS,
  type Origin,
  QUANTIZATIONS,
  type Quantization,
  RELATIVE_EXTENT,
  RESIZE_RULES,
  type ResizeRule,
  SPACES,
  type Space,
  UNITS,
  type Units,
} from './conventions.js';
export { type Diagnosis, type DiagnosisVerdict, diagnose, MIN_SAMPLES } from './diagnose.js';
export { type ErrorKind, GeometryError, type GeometryErrorCode, show, TrueclickError } from './errors.js';
export { type FrameGeometry, frameOrigin, modelImageSize, shownSize, validateFrame } from './frame.js';
export { type ImageSize, imageSize } from './image-size.js';
export { type CssBox, toConvention, toConventionBox } from './inverse.js';
export { BIN_COUNT, type XY } from './mapping.js';
export { MAX_MODEL_OUTPUT_CHARS, type ParsedOutput, parseModelOutput } from './parse.js';
export {
  type Grammar,
  isPresetName,
  PRESET_NAMES,
  PRESETS,
  type Preset,
  type PresetName,
  presetFor,
} from './presets.js';
export { conventionFor, type TargetRequest } from './request.js';
export {
  ANTHROPIC_QUICKSTART_TARGETS,
  anthropicQuickstartTarget,
  applyResize,
  CLAUDE_MAX_LONG_EDGE,
  CLAUDE_MAX_PIXELS,
  claudeResize,
  pythonRound,
  QWEN2_VL_RESIZE,
  QWEN3_VL_RESIZE,
  qwen3VlResize,
  qwenSmartResize,
  type Size,
  type SmartResizeOptions,
  UI_TARS_15_RESIZE,
  uiTars15Resize,
} from './resize.js';
export { type ResolvedPoint, resolveRequest } from './resolve.js';
