SELECT id, name FROM users WHERE id = 1;
