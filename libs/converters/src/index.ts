// What the API may import: descriptors, options, plans and the graph — nothing that starts an engine.
export { ConversionError, FAILURE_TYPES, type FailureType } from './platform/conversion-error.js';
export { ConversionGraph, type GraphJoin, MAX_PLAN_STEPS } from './platform/conversion-graph.js';
export { type JoinPlan, type JoinPlanning, planJoin } from './platform/join-plan.js';
export { conversionTablesMarkdown, withConversionTables } from './platform/conversion-tables.js';
export { type ConversionOptions, type OptionName, type OptionsValidation, selectedPages } from './platform/conversion-options.js';
export { describeAllowed, OPTION_NAMES, OPTION_SCHEMAS, SECRET_OPTION_NAMES, validateOptions } from './engines/option-catalogue.js';
export { type ConversionPlan, engineChoices, lossesOfPlan, optionsOfPlan, plansTaking, type PlanStep, stepWeights } from './platform/conversion-plan.js';
export { DOCUMENT_FONTS, type DocumentFont } from './platform/document-fonts.js';
export { allPairs, ENGINE_CLASSES, type EngineClass, type EngineDescriptor, type EngineJoin, type EngineLimits, type EnginePair } from './platform/engine-descriptor.js';
export { ARCHIVE_FORMATS, ARCHIVES_DESCRIPTOR, type ArchiveFormat } from './engines/archives/archives.descriptor.js';
export { defaultLibreOfficePoolSize } from './engines/libreoffice/libreoffice.descriptor.js';
export { ENGINE_DESCRIPTORS, engineDescriptor } from './engines/engines.js';
export { SANDBOX_SETTINGS, type SandboxSetting } from './platform/sandbox/sandbox-settings.js';
export { writeStoredZip } from './shared/stored-zip.writer.js';
