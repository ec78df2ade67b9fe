/** Who this deployment is: the id of its database, and where that database is (for messages). */
export interface Deployment {
  id: string;
  database: string;
}

export const DEPLOYMENT = Symbol('DEPLOYMENT');
