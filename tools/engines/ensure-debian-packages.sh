#!/usr/bin/env bash
# Installs the Debian packages the service and the tests need when any is missing, so `npm start` converts documents
# and `npm test` works on a fresh Debian machine. Silent and quick when everything is there (one dpkg-query call,
# no apt).
#   bash tools/engines/ensure-debian-packages.sh             install what the service and the tests need (npm test, .ci/run)
#   bash tools/engines/ensure-debian-packages.sh --service   install what the service needs (npm start); without root
#                                                            or sudo, say the one command to run and go on
#   bash tools/engines/ensure-debian-packages.sh --check     only list what is missing (exit 1 if any)
set -euo pipefail

# THE lists of Debian packages. Adding an engine (libreoffice-writer-nogui, pandoc, …) or a font is one line here;
# `npm start`, `npm test` and `.ci/run` all install from these lists, and tests check that the Dockerfile installs
# SERVICE_PACKAGES' engines and fonts (libs/converters: engine descriptors, DOCUMENT_FONTS).
SERVICE_PACKAGES=(
  bubblewrap    # the engine sandbox (bwrap): every engine process runs in one
  ffmpeg        # audio and video engine
  libreoffice-writer-nogui   # documents engine (warm soffice pool): Writer
  libreoffice-calc-nogui     # … Calc
  libreoffice-impress-nogui  # … Impress
  python3-uno                # the pool's UNO bridge (Debian's /usr/bin/python3)
  poppler-utils # pdfinfo, pdftoppm, pdftotext, pdftohtml (PDF engine), pdfimages and pdffonts (test checks)
  ghostscript   # PostScript to PDF, PDF/A, PDF compression (always -dSAFER)
  qpdf          # PDF operations (rotate, stamp, encrypt, decrypt, flatten, split, merge); the tests' PDF producer and reader too
  img2pdf       # images to PDF, lossless
  libimage-exiftool-perl # exiftool: metadata of pictures, PDFs and office documents removed, a PDF's title and author set
  imagemagick   # bmp ico tga ppm pgm pbm psd jp2 heic pcx xpm, under our own policy
  pandoc        # markup engine (md rst org tex ipynb epub ↔ office formats), always --sandbox
  calibre       # e-books engine (ebook-convert: epub mobi azw3 fb2 ↔ each other, docx odt → e-books)
  libarchive-tools # bsdtar: the archives engine (zip, 7z, tar, tar.gz, tar.bz2, tar.xz)
  chromium      # HTML engine (warm headless browser: html → pdf png jpg); the SDK's browser test runs one too
  tesseract-ocr ocrmypdf  # OCR engine: pictures of text → txt md pdf, scanned PDFs → searchable PDF, text, Markdown
  tesseract-ocr-osd       # … page orientation and script detection (turned pages)
  # … the languages OCR reads (OCR_LANGUAGES in libs/converters says which code is which)
  tesseract-ocr-eng tesseract-ocr-deu tesseract-ocr-fra tesseract-ocr-spa tesseract-ocr-ita tesseract-ocr-por
  tesseract-ocr-nld tesseract-ocr-rus tesseract-ocr-ara tesseract-ocr-heb tesseract-ocr-hin
  tesseract-ocr-chi-sim tesseract-ocr-chi-tra tesseract-ocr-jpn tesseract-ocr-kor
  # Fonts every document is drawn with (DOCUMENT_FONTS in libs/converters says what each covers; about 150 MB)
  fonts-dejavu-core fonts-liberation2 fonts-crosextra-carlito fonts-crosextra-caladea
  fonts-noto-core fonts-noto-cjk fonts-symbola
)
TEST_PACKAGES=(
  file          # libmagic, the detection baseline
  apparmor      # apparmor_parser: the tests compile the worker container's AppArmor profile (deploy/worker-apparmor)
  7zip          # 7-Zip (7zz): the archive tests' 7z producer and reader, independent of bsdtar
  unzip         # the LibreOffice tests list and read OOXML/ODF outputs with it
  python3-yaml  # the data tests read YAML outputs with PyYAML (Debian's /usr/bin/python3), not with our parser
  libheif-examples # heif-convert: the conversion matrix reads AVIF and HEIC pictures (with their transparency) with libheif, not with sharp
  redis-server  # redis-server for private Redis servers (fault-injection tests) and the dev queue
  postgresql    # initdb, pg_ctl, postgres (postgresql-15 on Debian 12) for private PostgreSQL servers
)

mode=${1:-}
case "$mode" in
  --service) PACKAGES=("${SERVICE_PACKAGES[@]}") ;;
  "" | --check) PACKAGES=("${SERVICE_PACKAGES[@]}" "${TEST_PACKAGES[@]}") ;;
  *) printf 'ensure-debian-packages: unknown option %s\n' "$mode" >&2; exit 2 ;;
esac

# Prints the given packages that are not installed, one per line.
missing_packages() {
  local installed
  # dpkg-query exits 1 when it knows none of a name; the status column says which ones are installed.
  installed=$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "$@" 2>/dev/null | awk '$2 == "installed" { print $1 }' || true)
  local pkg
  for pkg in "$@"; do
    grep -qxF -- "$pkg" <<<"$installed" || printf '%s\n' "$pkg"
  done
}

fail() {
  printf 'ensure-debian-packages: %s\n' "$*" >&2
  exit 1
}

if ! command -v dpkg-query >/dev/null 2>&1; then
  # Not Debian: nothing to install with; the tests say what they miss.
  printf 'ensure-debian-packages: not a Debian system, not checked; wanted: %s\n' "${PACKAGES[*]}" >&2
  exit 0
fi

mapfile -t missing < <(missing_packages "${PACKAGES[@]}")

if [ "$mode" = "--check" ]; then
  [ "${#missing[@]}" -eq 0 ] && exit 0
  printf '%s\n' "${missing[@]}"
  exit 1
fi

[ "${#missing[@]}" -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  as_root=(sudo -n)
elif [ "$mode" = "--service" ]; then
  # The service starts with the engines it finds and lists no pair of a missing one.
  printf 'ensure-debian-packages: engines or fonts missing; to convert every format, run as root: apt-get install --no-install-recommends %s\n' "${missing[*]}" >&2
  exit 0
else
  fail "missing Debian packages the tests need; install them as root: apt-get install ${missing[*]}"
fi

printf 'ensure-debian-packages: installing %s (a few minutes on a fresh machine)\n' "${missing[*]}" >&2
# env carries DEBIAN_FRONTEND through sudo, which may reset the environment.
apt=("${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=120)
if ! { "${apt[@]}" update -qq && "${apt[@]}" install -y -qq --no-install-recommends "${missing[@]}" >&2; }; then
  [ "$mode" = "--service" ] || fail "apt-get failed to install: ${missing[*]}"
  printf 'ensure-debian-packages: apt-get failed; the service starts with the engines it finds\n' >&2
  exit 0
fi

mapfile -t still_missing < <(missing_packages "${missing[@]}")
[ "${#still_missing[@]}" -eq 0 ] || fail "apt-get did not install: ${still_missing[*]}"
