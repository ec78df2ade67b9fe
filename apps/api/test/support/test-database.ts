// The shared PostgreSQL of the tests: each test run gets its own database on it and drops it afterwards.
export { createTestDatabase, TEST_POSTGRES_URL, type TestDatabase } from '@fileshift/testing';
