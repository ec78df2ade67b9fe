// The order of `components.schemas` in the OpenAPI document (and so of the SDK's generated types): each module
// registers its schemas when it is first evaluated, so they are evaluated here, first, in the contract's order —
// not in whatever order the modules happen to be wired.
import './http-kit/error-response.schema.js';
import './detection/detect-file-type.schemas.js';
import './discovery/formats-view.schemas.js';
import './health/health.schemas.js';
import './x402-api/convert-file.schemas.js';
import './payments/price.schemas.js';
import './x402-api/job-status.schemas.js';
import './x402-api/result.schemas.js';
import './conversion-requests/conversion-options.schema.js';
import './key-api/key-api.schemas.js';
import './payments/payment-challenge.schemas.js';
