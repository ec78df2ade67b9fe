export { assessConversionCompatibility, type CompatibilityStatus, type ConversionCompatibility } from './assess-conversion-compatibility.js';
export { type DetectionCandidate, type DetectionEvidence, type DetectionInput, type DetectionResult, detectFormat, HEADER_LIMIT } from './detect-format.js';
export { suggestFilename } from './suggest-filename.js';
