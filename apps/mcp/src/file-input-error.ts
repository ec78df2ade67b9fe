/** A problem with the file the agent named, phrased so it can fix the call; raised before anything is paid. */
export class FileInputError extends Error {}
