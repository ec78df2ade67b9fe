CREATE TEMP TRIGGER IF NOT EXISTS fts_db_book_deleted_trg AFTER DELETE ON main.books BEGIN
    DELETE FROM books_text WHERE book=OLD.id;
    DELETE FROM dirtied_formats WHERE book=OLD.id;
END;

CREATE TEMP TRIGGER IF NOT EXISTS fts_db_format_deleted_trg AF