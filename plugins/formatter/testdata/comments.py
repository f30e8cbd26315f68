#!/usr/bin/env python
# -*- coding: utf-8 -*-
# Top comment block.

# Comment about os
import os  # inline os
# comment about sys
import sys
from a import b  # comment b
from a import c  # comment c
from z import (  # on paren
    y,  # comment y
    x,
)
import json # json comment

x = 1
