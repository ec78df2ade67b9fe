import type { FailedTransactionMetadata } from 'litesvm';

/**
 * A Solana TransactionError as JSON-RPC carries it (the Rust enum serialized by serde): a variant's name, or
 * an object keyed by it, e.g. "BlockhashNotFound" or {"InstructionError":[2,{"Custom":1}]}. @solana/kit
 * turns these into its SolanaError codes, so the official x402 code reads our refusals as a validator's.
 */
export type SolanaTransactionError = string | Record<string, unknown>;

/** litesvm's fieldless TransactionError and InstructionError variants, by their numbers (its enums are const, not in its JS). */
const TRANSACTION_ERRORS = [
  'AccountInUse', 'AccountLoadedTwice', 'AccountNotFound', 'ProgramAccountNotFound', 'InsufficientFundsForFee',
  'InvalidAccountForFee', 'AlreadyProcessed', 'BlockhashNotFound', 'CallChainTooDeep', 'MissingSignatureForFee',
  'InvalidAccountIndex', 'SignatureFailure', 'InvalidProgramForExecution', 'SanitizeFailure', 'ClusterMaintenance',
  'AccountBorrowOutstanding', 'WouldExceedMaxBlockCostLimit', 'UnsupportedVersion', 'InvalidWritableAccount',
  'WouldExceedMaxAccountCostLimit', 'WouldExceedAccountDataBlockLimit', 'TooManyAccountLocks', 'AddressLookupTableNotFound',
  'InvalidAddressLookupTableOwner', 'InvalidAddressLookupTableData', 'InvalidAddressLookupTableIndex', 'InvalidRentPayingAccount',
  'WouldExceedMaxVoteCostLimit', 'WouldExceedAccountDataTotalLimit', 'MaxLoadedAccountsDataSizeExceeded', 'ResanitizationNeeded',
  'InvalidLoadedAccountsDataSizeLimit', 'UnbalancedTransaction', 'ProgramCacheHitMaxLimit', 'CommitCancelled',
];

const INSTRUCTION_ERRORS = [
  'GenericError', 'InvalidArgument', 'InvalidInstructionData', 'InvalidAccountData', 'AccountDataTooSmall', 'InsufficientFunds',
  'IncorrectProgramId', 'MissingRequiredSignature', 'AccountAlreadyInitialized', 'UninitializedAccount', 'UnbalancedInstruction',
  'ModifiedProgramId', 'ExternalAccountLamportSpend', 'ExternalAccountDataModified', 'ReadonlyLamportChange', 'ReadonlyDataModified',
  'DuplicateAccountIndex', 'ExecutableModified', 'RentEpochModified', 'NotEnoughAccountKeys', 'AccountDataSizeChanged',
  'AccountNotExecutable', 'AccountBorrowFailed', 'AccountBorrowOutstanding', 'DuplicateAccountOutOfSync', 'InvalidError',
  'ExecutableDataModified', 'ExecutableLamportChange', 'ExecutableAccountNotRentExempt', 'UnsupportedProgramId', 'CallDepth',
  'MissingAccount', 'ReentrancyNotAllowed', 'MaxSeedLengthExceeded', 'InvalidSeeds', 'InvalidRealloc', 'ComputationalBudgetExceeded',
  'PrivilegeEscalation', 'ProgramEnvironmentSetupFailure', 'ProgramFailedToComplete', 'ProgramFailedToCompile', 'Immutable',
  'IncorrectAuthority', 'AccountNotRentExempt', 'InvalidAccountOwner', 'ArithmeticOverflow', 'UnsupportedSysvar', 'IllegalOwner',
  'MaxAccountsDataAllocationsExceeded', 'MaxAccountsExceeded', 'MaxInstructionTraceLengthExceeded', 'BuiltinProgramsMustConsumeComputeUnits',
  'BorshIoError',
];

type LiteSvmTransactionError = ReturnType<FailedTransactionMetadata['err']>;

export function transactionErrorOf(failure: FailedTransactionMetadata): SolanaTransactionError {
  return toJson(failure.err());
}

function toJson(error: LiteSvmTransactionError): SolanaTransactionError {
  if (typeof error === 'number') return TRANSACTION_ERRORS[error] ?? `UnknownTransactionError${error}`;
  // The variants with fields are classes of the native module that litesvm's index does not export: told apart by name.
  switch (error.constructor.name) {
    case 'TransactionErrorInstructionError': {
      const { index } = error as { index: number };
      return { InstructionError: [index, instructionErrorToJson((error as { err(): unknown }).err())] };
    }
    case 'TransactionErrorDuplicateInstruction':
      return { DuplicateInstruction: (error as { index: number }).index };
    case 'TransactionErrorInsufficientFundsForRent':
      return { InsufficientFundsForRent: { account_index: (error as { accountIndex: number }).accountIndex } };
    default:
      return { ProgramExecutionTemporarilyRestricted: { account_index: (error as { accountIndex: number }).accountIndex } };
  }
}

function instructionErrorToJson(error: unknown): SolanaTransactionError {
  if (typeof error === 'number') return INSTRUCTION_ERRORS[error] ?? `UnknownInstructionError${error}`;
  if (error && typeof error === 'object' && 'code' in error) return { Custom: (error as { code: number }).code };
  return { BorshIoError: String((error as { msg?: string }).msg ?? '') };
}

/** How a validator words a refusal in its JSON-RPC error message, for the common ones; the error itself is in `data.err`. */
export function describeTransactionError(error: SolanaTransactionError): string {
  if (error === 'BlockhashNotFound') return 'Blockhash not found';
  if (error === 'AlreadyProcessed') return 'This transaction has already been processed';
  if (typeof error === 'string') return error;
  const instruction = error.InstructionError as [number, unknown] | undefined;
  if (instruction) return `Error processing Instruction ${instruction[0]}: ${JSON.stringify(instruction[1])}`;
  return JSON.stringify(error);
}
