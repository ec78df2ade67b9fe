#!/bin/sh

# script to add apt.postgresql.org to sources.list.d

# Copyright (C) 2013-2022 Christoph Berg <myon@debian.org>
#
# This program is free software; you can redistribute it and/or modify
# it under the terms of the GNU General Public License as p