#!/bin/sh
set -e
echo hello
