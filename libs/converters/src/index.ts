// What the API may import: descriptors, options, plans and the graph — nothing that starts an engine.
export { ConversionError, FAILURE_TYPES, type FailureType } from './conversion-error.js';
export { ConversionGraph, MAX_PLAN_STEPS } from './conversion-graph.js';
export { conversionTablesMarkdown, withConversionTables } from './conversion-tables.js';
export { type ConversionOptions, describeAllowed, OPTION_NAMES, OPTION_SCHEMAS, type OptionName, type OptionsValidation, selectedPages, validateOptions } from './conversion-options.js';
export { type ConversionPlan, optionsOfPlan, type PlanStep, stepWeights } from './conversion-plan.js';
export { allPairs, ENGINE_CLASSES, type EngineClass, type EngineDescriptor, type EngineLimits, type EnginePair } from './engine-descriptor.js';
export { ARCHIVE_FORMATS, ARCHIVES_DESCRIPTOR, type ArchiveFormat } from './descriptors/archives.descriptor.js';
export { defaultLibreOfficePoolSize } from './descriptors/libreoffice.descriptor.js';
export { ENGINE_DESCRIPTORS, engineDescriptor } from './engine-descriptors.js';
export { SANDBOX_SETTINGS, type SandboxSetting } from './sandbox/sandbox-settings.js';
