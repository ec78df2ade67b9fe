#!/bin/sh
# This is a shell library to interface to the Debian configration management
# system.
#
# This library is obsolete. Do not use.

###############################################################################
# Initialization.

# Check to see if