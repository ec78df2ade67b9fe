CREATE TABLE fts_db.dirtied_formats ( id INTEGER PRIMARY KEY,
	book INTEGER NOT NULL,
	format TEXT NOT NULL COLLATE NOCASE,
    in_progress INTEGER NOT NULL DEFAULT FALSE,
    UNIQUE(book, format)
);

CREATE TABLE fts_db.books_text ( id INTEGER PRIMARY KEY