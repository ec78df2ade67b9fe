CREATE TABLE users (id integer primary key, name text);
